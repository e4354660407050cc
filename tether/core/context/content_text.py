"""The text of a message's content: its text blocks, joined (string content as it is)."""

from __future__ import annotations

from collections.abc import Callable
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


__all__ = ["content_text"]
