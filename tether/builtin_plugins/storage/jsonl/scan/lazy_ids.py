"""The JSONL store's id → row index: built when first asked for.

A 1M-entry session written as one branch never needs its id → row dict to show its context
(its path is its rows in order, its leaf the last row), and building it (1M keys, 1M row
numbers: about 0.3 s, and memory touched for the first time) would be most of the time spent
between indexing the file and encoding the context. :meth:`LazyIds.index_ids` leaves it for
later when the rows are one branch with no id twice. The kernel's
:class:`~tether.storage.EntryTable` keeps its dict built; the answers are the same.
"""

from __future__ import annotations

from typing import Any


class LazyIds:
    """Mixed into the JSONL store's :class:`~.line_table.LineTable` before the kernel's
    :class:`~tether.storage.EntryTable`, whose ``by_id`` it makes lazy."""

    ids: list[str]
    parents: list[Any]
    _by_id: dict[str, int] | None

    @property
    def by_id(self) -> dict[str, int]:
        """id → its last row (a later duplicate wins, as in pi), built when first asked for."""
        if self._by_id is None:
            self._by_id = dict(zip(self.ids, range(len(self.ids)), strict=True))
        return self._by_id

    @by_id.setter
    def by_id(self, value: dict[str, int]) -> None:
        self._by_id = value

    def has_duplicate_ids(self) -> bool:
        """Whether an id is on more than one row (a table whose dict is not built yet has none:
        :meth:`index_ids` found none)."""
        return self._by_id is not None and len(self._by_id) != len(self.ids)

    def index_ids(self) -> bool:
        """Index the ids once the scanner filled the columns, with one string object per id
        (each parent the id object of its row: ~6 MB less per 100k entries); whether an id is
        on more than one row. Rows that are one branch with no id twice keep no dict yet."""
        ids, parents = self.ids, self.parents
        if len(ids) > 1 and parents[1:] == ids[:-1] and len(known := set(ids)) == len(ids):
            first = parents[0]
            if first.__class__ is str and first in known:
                first = ids[ids.index(first)]
            self.parents = [first, *ids[:-1]]
            self._by_id = None
            return False
        by_id = self._by_id = dict(zip(ids, range(len(ids)), strict=True))
        get = by_id.get
        if len(ids) > 1 and parents[1:] == ids[:-1]:  # one branch: each parent is the row above
            first = parents[0]
            self.parents = [first if (i := get(first)) is None else ids[i], *ids[:-1]]
        else:
            self.parents = [p if (i := get(p)) is None else ids[i] for p in parents]
        return len(by_id) != len(ids)

    def row_of(self, entry_id: Any) -> int | None:
        if not isinstance(entry_id, str):
            return None
        if self._by_id is None and self.ids and self.ids[-1] == entry_id:
            return len(self.ids) - 1  # the leaf, as a rule: no need to build the index
        return self.by_id.get(entry_id)


__all__ = ["LazyIds"]
