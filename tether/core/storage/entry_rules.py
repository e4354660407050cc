"""What makes a session line an entry, and how a line's problems are described.

Shared by the entry table (:mod:`tether.core.storage.entry_table`, which re-exports these
names), the JSONL store's scanner and repair.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


class StaleRow(Exception):
    """A lazily parsed line turned out malformed; the table changed — recompute."""


class BrokenLine(Exception):
    """A lazily parsed line is malformed; the table was left as it was (``drop=False``)."""


@dataclass(frozen=True)
class Problem:
    """Something wrong in a session file, with its 1-based line number (0: not from a line)."""

    line: int
    kind: str  # malformed | torn | unterminated | not-an-entry | duplicate-header | cycle
    #            | duplicate-id
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


def _reject_constant(name: str) -> Any:
    raise ValueError(f"invalid JSON literal {name}")


def loads_std(raw: bytes) -> Any:
    """pi's ``JSON.parse`` of one line, the reference: ``json.loads`` of ``raw`` read as UTF-8
    (bad bytes → U+FFFD, as node's ``readFileSync(…, "utf8")``), ``NaN``/``Infinity``
    refused; ``ValueError`` if invalid."""
    try:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("utf-8", "replace")
        return json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def json_error(raw: bytes) -> str:
    """A short description of why ``raw`` is not valid JSON."""
    try:
        loads_std(raw)
    except json.JSONDecodeError as exc:
        return f"invalid JSON: {exc.msg} (column {exc.colno})"
    except (ValueError, RecursionError) as exc:
        return f"invalid JSON: {exc}"
    return "invalid JSON"


class BadRef:
    """A ``parentId`` that is neither a string nor null: it never resolves (an orphan, as in pi)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"BadRef({self.value!r})"


def entry_problem(record: Any, lineno: int) -> Problem | None:
    """Why a parsed record cannot be an entry (``None`` if it can)."""
    if not isinstance(record, dict):
        kind = type(record).__name__
        return Problem(lineno, "not-an-entry", f"a JSON {kind}, not an object; skipped")
    if record.get("type") == "session":
        return Problem(lineno, "duplicate-header", "another session header; ignored (as pi does)")
    if not isinstance(record.get("id"), str):
        return Problem(lineno, "not-an-entry", "entry has no string id; skipped")
    return None


def parent_of(record: dict[str, Any]) -> Any:
    parent = record.get("parentId")
    return parent if parent is None or isinstance(parent, str) else BadRef(parent)


__all__ = [
    "BadRef",
    "BrokenLine",
    "Problem",
    "StaleRow",
    "entry_problem",
    "json_error",
    "parent_of",
]
