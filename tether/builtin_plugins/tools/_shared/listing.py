"""The output of ``find``, ``grep`` and ``ls``: rows cut by bytes only, then bracketed notices.

A notice is (text for the model, ``details`` key, value): pi's order is the tool's own result
limit, then the byte limit, then any other (``grep``'s cut lines).
"""

from __future__ import annotations

from typing import Any

from tether.builtin_plugins.tools._shared.truncate import (
    DEFAULT_MAX_BYTES,
    NO_LINE_LIMIT,
    format_size,
    truncate_head,
)
from tether.tools import ToolResult

Notice = tuple[str, str, Any]

REFINE = ", or refine pattern"


def limit_notice(limit: int, rows: str, key: str, hint: str = "") -> Notice:
    """pi's ``N <rows> limit reached. Use limit=2N for more<hint>``, ``details[key] = N``."""
    return (f"{limit} {rows} limit reached. Use limit={limit * 2} for more{hint}", key, limit)


def listing_result(
    rows: list[str], limit: Notice | None, other: Notice | None = None
) -> ToolResult:
    """``rows`` (already capped in number) cut to :data:`DEFAULT_MAX_BYTES`, with the notices
    that apply appended as ``[a. b]`` and their keys in ``details``."""
    cut = truncate_head("\n".join(rows), max_lines=NO_LINE_LIMIT)
    size: Notice | None = None
    if cut.truncated:
        size = (f"{format_size(DEFAULT_MAX_BYTES)} limit reached", "truncation", cut.to_json())
    notices = [notice for notice in (limit, size, other) if notice is not None]
    text = cut.content + (f"\n\n[{'. '.join(n[0] for n in notices)}]" if notices else "")
    return ToolResult.text(text, details={key: value for _, key, value in notices} or None)
