"""Which entries of a branch make its context, found from the entry table's columns.

The context of a path (root to leaf) needs only: the entries from the last compaction's first
kept entry on that can hold a message (``message``, ``custom_message``, ``branch_summary``), that
compaction, and the last entries that set the thinking level and the model (which may come
before; they set, they add no message). Everything else stays unparsed.
"""

from __future__ import annotations

from bisect import insort
from itertools import compress

from tether.core.storage.jsonl_index import EntryTable

CONTEXT_TYPES = frozenset({"message", "custom_message", "branch_summary"})


def context_plan(table: EntryTable, path: list[int]) -> tuple[list[int], int]:
    """The rows of ``path`` that can change its context, in path order, and how many of them
    (a prefix: before the first kept entry of the last compaction) only set the thinking
    level or the model."""
    rows, settings_only, _ = _plan(table, path)
    return rows, settings_only


def _plan(table: EntryTable, path: list[int]) -> tuple[list[int], int, int | None]:
    """:func:`context_plan`, and the row of the last compaction (``None``: none)."""
    kinds = list(map(table.types.__getitem__, path))  # one pass in C; searched from the end
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
        ids = table.ids
        start = next((i for i in range(compaction) if ids[path[i]] == first_kept), compaction + 1)
    setters = {thinking, model, compaction} - {-1}
    before = sorted(i for i in setters if i < start)
    kept = [
        *before,
        *compress(range(start, len(path)), map(CONTEXT_TYPES.__contains__, kinds[start:])),
    ]
    for i in setters:  # the few after ``start`` that hold no message: in path order too
        if i >= start and kinds[i] not in CONTEXT_TYPES:
            insort(kept, i)
    rows = list(map(path.__getitem__, kept))
    return rows, len(before), path[compaction] if compaction >= 0 else None


def _last(items: list[str], value: str) -> int:
    """The last index of ``value`` in ``items``, or -1."""
    try:
        return len(items) - 1 - items[::-1].index(value)
    except ValueError:
        return -1


def stream_rows(table: EntryTable, path: list[int]) -> tuple[list[int], set[int]]:
    """:func:`context_plan`'s rows in the order a context stream reads them (the last
    compaction first: its summary is the first message), and the set of those that only set
    the thinking level or the model."""
    rows, settings_only, compaction = _plan(table, path)
    only = set(rows[:settings_only])
    if compaction is None:  # the plan holds no other compaction than the last one
        return rows, only
    return [compaction, *(r for r in rows if r != compaction)], only


__all__ = ["CONTEXT_TYPES", "context_plan", "stream_rows"]
