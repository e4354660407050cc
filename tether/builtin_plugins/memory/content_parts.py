"""The parts of a message's content as a human reads them or a search matches them: text,
thinking, tool calls and images, one string each (``session show``, ``--request`` previews,
the recall tool's search)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any


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


__all__ = ["block_parts"]
