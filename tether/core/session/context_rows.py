"""Which entries of a branch make its context, found from the entry table's columns.

The context of a path (root to leaf) needs only: the entries from the last compaction's first
kept entry on that can hold a message (``message``, ``custom_message``, ``branch_summary``), that
compaction, and the last entries that set the thinking level and the model (which may come
before; they set, they add no message). Everything else stays unparsed.
"""

from __future__ import annotations

from tether.core.storage.jsonl_index import EntryTable

CONTEXT_TYPES = frozenset({"message", "custom_message", "branch_summary"})


def context_plan(table: EntryTable, path: list[int]) -> tuple[list[int], int]:
    """The rows of ``path`` that can change its context, in path order, and how many of them
    (a prefix: before the first kept entry of the last compaction) only set the thinking
    level or the model."""
    types = table.types
    compaction = thinking = model = -1
    for i, row in enumerate(path):
        kind = types[row]
        if kind == "compaction":
            compaction = i
        elif kind == "thinking_level_change":
            thinking = i
    for i in range(len(path) - 1, -1, -1):
        kind = types[path[i]]
        if kind == "model_change" or (kind == "message" and table.role(path[i]) == "assistant"):
            model = i
            break
    start = 0
    keep = {thinking, model, compaction} - {-1}
    if compaction >= 0:
        first_kept = table.entry(path[compaction]).get("firstKeptEntryId")
        ids = table.ids
        start = next((i for i in range(compaction) if ids[path[i]] == first_kept), compaction + 1)
    keep.update(i for i in range(start, len(path)) if types[path[i]] in CONTEXT_TYPES)
    positions = sorted(keep)
    return [path[i] for i in positions], sum(1 for i in positions if i < start)


def stream_rows(table: EntryTable, path: list[int]) -> tuple[list[int], set[int]]:
    """:func:`context_plan`'s rows in the order a context stream reads them (the last
    compaction first: its summary is the first message), and the set of those that only set
    the thinking level or the model."""
    rows, settings_only = context_plan(table, path)
    types = table.types
    first = [r for r in rows if types[r] == "compaction"]
    return first + [r for r in rows if types[r] != "compaction"], set(rows[:settings_only])


__all__ = ["CONTEXT_TYPES", "context_plan", "stream_rows"]
