"""A message's text as session listings show and search it (JSONL folders and databases)."""

from __future__ import annotations

from typing import Any


def message_text(message: dict[str, Any]) -> str:
    """The text blocks of a message's content joined by spaces (string content as it is):
    what session listings show and search."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(
            block["text"]
            for block in content
            if isinstance(block, dict)
            and block.get("type") == "text"
            and isinstance(block.get("text"), str)
        )
    return ""


__all__ = ["message_text"]
