"""The text of a message's content: its text blocks, joined (string content as it is)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any


def _plain(value: Any) -> str:
    return "" if value is None else str(value)


def content_text(content: Any, separator: str = "", convert: Callable[[Any], str] = _plain) -> str:
    """The ``text`` of every text block of ``content``, through ``convert``, joined by
    ``separator``; string content is returned as it is, anything else gives ``""``."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return separator.join(
        convert(block.get("text"))
        for block in content
        if isinstance(block, dict) and block.get("type") == "text"
    )


def block_parts(
    content: Any,
    *,
    tool_call: Callable[[dict[str, Any]], str],
    thinking: bool = True,
    image: str = "[image]",
) -> Iterator[str]:
    """One string per block of ``content`` for a human or a search: text, thinking (when
    ``thinking``), ``tool_call(block)`` for a tool call, ``image`` for an image; string
    content is one part; empty parts are left out."""
    if isinstance(content, str):
        blocks: list[Any] = [{"type": "text", "text": content}]
    elif isinstance(content, list):
        blocks = content
    else:
        return
    for block in blocks:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text":
            part = str(block.get("text", ""))
        elif kind == "thinking" and thinking:
            part = str(block.get("thinking", ""))
        elif kind == "toolCall":
            part = tool_call(block)
        elif kind == "image":
            part = image
        else:
            continue
        if part:
            yield part


__all__ = ["block_parts", "content_text"]
