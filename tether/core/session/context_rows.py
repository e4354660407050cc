"""Which entries of a branch make its context, found from the entry table's columns.

:func:`tether.core.context.kept.plan` (pi's rule) on the branch's entry types: the last
compaction, the entries from its first kept entry on that can hold a message, and the last
entries that set the thinking level and the model. Everything else stays unparsed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from tether.core.context.kept import CONTEXT_TYPES, plan, stream_order
from tether.core.storage.entry_table import EntryTable


def context_plan(table: EntryTable, path: Sequence[int]) -> tuple[list[int], int]:
    """The rows of ``path`` that can change its context, in path order, and how many of them
    (a prefix: before the first kept entry of the last compaction) only set the thinking
    level or the model."""
    rows, settings_only, _ = _plan(table, path)
    return rows, settings_only


def _plan(table: EntryTable, path: Sequence[int]) -> tuple[list[int], int, int]:
    """:func:`context_plan`, and the position of the last compaction in the plan's path
    (-1: none). Each step is a pass in C: a 1M-entry branch's plan is a few of them."""
    first = _is_first_rows(path)
    kept, settings_only, compaction = plan(
        _pick(table.types, path),
        lambda i: table.role(path[i]) == "assistant",
        lambda c: _pick(table.ids, path[:c]),
        lambda c: table.entry(path[c]).get("firstKeptEntryId"),
    )
    rows = kept if first else list(map(path.__getitem__, kept))
    return rows, settings_only, compaction


def _is_first_rows(path: Sequence[int]) -> bool:
    """Whether ``path`` is rows 0, 1, 2, … (a one-branch table's path, as a ``range``)."""
    return isinstance(path, range) and path.start == 0 and path.step == 1


def _pick(column: list[Any], path: Sequence[int]) -> list[Any]:
    """``column``'s values at the rows of ``path``."""
    if _is_first_rows(path):
        return column[: len(path)]  # type: ignore[arg-type]
    return list(map(column.__getitem__, path))


def stream_rows(table: EntryTable, path: Sequence[int]) -> tuple[list[int], set[int]]:
    """:func:`context_plan`'s rows in the order a context stream reads them (the last
    compaction first: its summary is the first message), and the set of those that only set
    the thinking level or the model."""
    rows, settings_only, compaction = _plan(table, path)
    only = set(rows[:settings_only])
    if compaction < 0:
        return rows, only
    return stream_order(rows, path[compaction]), only


def entry_batches(
    table: EntryTable, rows: list[int], setting_only: set[int], size: int = 4096
) -> Iterator[tuple[list[dict[str, Any]], list[bool] | None]]:
    """The entries of ``rows`` a batch at a time (parsed, not kept: ``iter_entries`` with
    ``to_write``), each batch with which of its entries only set (``None``: none): what a
    :class:`~tether.core.context.stream.ContextStream` reads. The reference for a store's
    ``context_batches``."""
    for at in range(0, len(rows), size):
        batch = rows[at : at + size]
        entries = list(table.iter_entries(batch, to_write=True))
        if not setting_only or setting_only.isdisjoint(batch):
            yield entries, None
        else:
            yield entries, [row in setting_only for row in batch]


__all__ = ["CONTEXT_TYPES", "context_plan", "entry_batches", "stream_rows"]
