"""Which entries of a branch make its context, found from the entry table's columns.

The context of a path (root to leaf) needs only: the entries from the last compaction's first
kept entry on that can hold a message (``message``, ``custom_message``, ``branch_summary``), that
compaction, and the last entries that set the thinking level and the model (which may come
before; they set, they add no message). Everything else stays unparsed.
"""

from __future__ import annotations

import operator
from bisect import insort
from collections.abc import Sequence
from itertools import compress
from typing import Any

from tether.core.storage.jsonl_index import EntryTable

CONTEXT_TYPES = frozenset({"message", "custom_message", "branch_summary"})


def context_plan(table: EntryTable, path: Sequence[int]) -> tuple[list[int], int]:
    """The rows of ``path`` that can change its context, in path order, and how many of them
    (a prefix: before the first kept entry of the last compaction) only set the thinking
    level or the model."""
    rows, settings_only, _ = _plan(table, path)
    return rows, settings_only


def _plan(table: EntryTable, path: Sequence[int]) -> tuple[list[int], int, int | None]:
    """:func:`context_plan`, and the row of the last compaction (``None``: none). Each step
    is a pass in C: a 1M-entry branch's plan is a few of them."""
    kinds = _pick(table.types, path)
    compaction = _last(kinds, "compaction")
    thinking = _last(kinds, "thinking_level_change")
    model = -1
    for i in range(len(path) - 1, -1, -1):
        kind = kinds[i]
        if kind == "model_change" or (kind == "message" and table.role(path[i]) == "assistant"):
            model = i
            break
    start = 0
    if compaction >= 0:
        first_kept = table.entry(path[compaction]).get("firstKeptEntryId")
        try:
            start = _pick(table.ids, path[:compaction]).index(first_kept)
        except ValueError:  # not before the compaction: nothing before it is kept
            start = compaction + 1
    setters = {thinking, model, compaction} - {-1}
    before = sorted(i for i in setters if i < start)
    kept = [
        *before,
        *compress(range(start, len(path)), map(CONTEXT_TYPES.__contains__, kinds[start:])),
    ]
    for i in setters:  # the few after ``start`` that hold no message: in path order too
        if i >= start and kinds[i] not in CONTEXT_TYPES:
            insort(kept, i)
    rows = kept if _is_first_rows(path) else list(map(path.__getitem__, kept))
    return rows, len(before), path[compaction] if compaction >= 0 else None


def _is_first_rows(path: Sequence[int]) -> bool:
    """Whether ``path`` is rows 0, 1, 2, … (a one-branch table's path, as a ``range``)."""
    return isinstance(path, range) and path.start == 0 and path.step == 1


def _pick(column: list[Any], path: Sequence[int]) -> list[Any]:
    """``column``'s values at the rows of ``path``."""
    if _is_first_rows(path):
        return column[: len(path)]  # type: ignore[arg-type]
    return list(map(column.__getitem__, path))


def _last(items: list[str], value: str) -> int:
    """The last index of ``value`` in ``items``, or -1 (read from the end, not copied)."""
    try:
        return len(items) - 1 - operator.indexOf(reversed(items), value)
    except ValueError:
        return -1


def stream_rows(table: EntryTable, path: Sequence[int]) -> tuple[list[int], set[int]]:
    """:func:`context_plan`'s rows in the order a context stream reads them (the last
    compaction first: its summary is the first message), and the set of those that only set
    the thinking level or the model."""
    rows, settings_only, compaction = _plan(table, path)
    only = set(rows[:settings_only])
    if compaction is None:  # the plan holds no other compaction than the last one
        return rows, only
    at = rows.index(compaction)  # in the plan: it is the last one
    return [compaction, *rows[:at], *rows[at + 1 :]], only


__all__ = ["CONTEXT_TYPES", "context_plan", "stream_rows"]
