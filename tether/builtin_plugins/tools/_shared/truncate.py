"""Tool-output truncation with pi's exact rules (pi's ``truncate.ts``).

Lines are ``text.split("\\n")`` (a trailing newline yields a final empty line); byte limits
count UTF-8; head and tail truncation never return a partial line, except that a tail whose
last line alone is over the byte limit keeps that line's last bytes (``last_line_partial``).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Literal

from tether.builtin_plugins import camel_json
from tether.tools import js_len, js_slice

DEFAULT_MAX_LINES = 2000
DEFAULT_MAX_BYTES = 50 * 1024
GREP_MAX_LINE_LENGTH = 500
#: "no line limit" for tools whose row count is already capped (JS ``Number.MAX_SAFE_INTEGER``)
NO_LINE_LIMIT = 2**53 - 1


def utf8_len(text: str) -> int:
    """UTF-8 byte length (a lone surrogate counts 3 bytes, like JS's replacement character)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


def _to_fixed_1(value: float) -> str:
    """JS ``value.toFixed(1)``: exact decimal value, ties rounded away from zero."""
    return str(Decimal(value).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def format_size(num_bytes: int) -> str:
    """``512B``, ``50.0KB``, ``1.5MB`` (pi's ``formatSize``)."""
    if num_bytes < 1024:
        return f"{num_bytes}B"
    if num_bytes < 1024 * 1024:
        return f"{_to_fixed_1(num_bytes / 1024)}KB"
    return f"{_to_fixed_1(num_bytes / (1024 * 1024))}MB"


@dataclass
class Truncation:
    """pi's ``TruncationResult``; :meth:`to_json` gives its camelCase JSON."""

    content: str
    truncated: bool
    truncated_by: Literal["lines", "bytes"] | None
    total_lines: int
    total_bytes: int
    output_lines: int
    output_bytes: int
    last_line_partial: bool
    first_line_exceeds_limit: bool
    max_lines: int
    max_bytes: int

    def to_json(self) -> dict[str, Any]:
        return camel_json(self)


def _untouched(content: str, lines: int, size: int, max_lines: int, max_bytes: int) -> Truncation:
    return Truncation(
        content, False, None, lines, size, lines, size, False, False, max_lines, max_bytes
    )


def _tail_bytes(line: str, max_bytes: int) -> str:
    """The last ``max_bytes`` bytes of ``line``, starting on a UTF-8 character boundary."""
    raw = line.encode("utf-8", "surrogatepass")
    if len(raw) <= max_bytes:
        return line
    start = len(raw) - max_bytes
    while start < len(raw) and (raw[start] & 0xC0) == 0x80:
        start += 1
    return raw[start:].decode("utf-8", "surrogatepass")


def _truncate(content: str, max_lines: int, max_bytes: int, *, from_end: bool) -> Truncation:
    """pi's ``truncateHead`` (``from_end=False``) and ``truncateTail`` in one walk."""
    total_bytes = utf8_len(content)
    lines = content.split("\n")
    total_lines = len(lines)
    if total_lines <= max_lines and total_bytes <= max_bytes:
        return _untouched(content, total_lines, total_bytes, max_lines, max_bytes)
    if not from_end and utf8_len(lines[0]) > max_bytes:
        return Truncation(
            "", True, "bytes", total_lines, total_bytes, 0, 0, False, True, max_lines, max_bytes
        )
    kept: list[str] = []
    used = 0
    truncated_by: Literal["lines", "bytes"] = "lines"
    partial = False
    for line in reversed(lines) if from_end else lines:
        if len(kept) >= max_lines:
            break
        size = utf8_len(line) + (1 if kept else 0)
        if used + size > max_bytes:
            truncated_by = "bytes"
            if not kept:  # only a tail gets here: a head's too-long first line returned above
                cut = _tail_bytes(line, max_bytes)
                kept.append(cut)
                used = utf8_len(cut)
                partial = True
            break
        kept.append(line)
        used += size
    if len(kept) >= max_lines and used <= max_bytes:
        truncated_by = "lines"
    if from_end:
        kept.reverse()
    out = "\n".join(kept)
    return Truncation(
        out,
        True,
        truncated_by,
        total_lines,
        total_bytes,
        len(kept),
        utf8_len(out),
        partial,
        False,
        max_lines,
        max_bytes,
    )


def truncate_head(
    content: str, *, max_lines: int = DEFAULT_MAX_LINES, max_bytes: int = DEFAULT_MAX_BYTES
) -> Truncation:
    """Keep the first lines that fit both limits (for file reads)."""
    return _truncate(content, max_lines, max_bytes, from_end=False)


def truncate_tail(
    content: str, *, max_lines: int = DEFAULT_MAX_LINES, max_bytes: int = DEFAULT_MAX_BYTES
) -> Truncation:
    """Keep the last lines that fit both limits (for command output: errors live at the end)."""
    return _truncate(content, max_lines, max_bytes, from_end=True)


def truncate_line(line: str, max_chars: int = GREP_MAX_LINE_LENGTH) -> tuple[str, bool]:
    """Cut ``line`` to ``max_chars`` UTF-16 units plus ``"... [truncated]"``; (text, was_cut)."""
    if js_len(line) <= max_chars:
        return line, False
    return f"{js_slice(line, 0, max_chars)}... [truncated]", True


__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_LINES",
    "GREP_MAX_LINE_LENGTH",
    "NO_LINE_LIMIT",
    "Truncation",
    "format_size",
    "truncate_head",
    "truncate_line",
    "truncate_tail",
    "utf8_len",
]
