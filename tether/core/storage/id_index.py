"""The id indexes of an entry table: id → row; parentId → rows.

A store's table may build the id → row dict later (the JSONL store's does, for a session
that is one branch); every answer stays the same.
"""

from __future__ import annotations

from typing import Any


class IdIndex:
    """The id indexes over the ``ids`` and ``parents`` columns of
    :class:`~tether.core.storage.entry_table.EntryTable`."""

    ids: list[str]
    parents: list[Any]
    by_id: dict[str, int]  # id → its last row (a later duplicate wins, as in pi)
    _children: dict[Any, list[int]] | None

    def has_duplicate_ids(self) -> bool:
        """Whether an id is on more than one row."""
        return len(self.by_id) != len(self.ids)

    def row_of(self, entry_id: Any) -> int | None:
        return self.by_id.get(entry_id) if isinstance(entry_id, str) else None

    def children_index(self) -> dict[Any, list[int]]:
        """parentId → child rows in file order (built once, kept up to date on append)."""
        if self._children is None:
            index: dict[Any, list[int]] = {}
            for row, parent in enumerate(self.parents):
                bucket = index.get(parent)
                if bucket is None:
                    index[parent] = [row]
                else:
                    bucket.append(row)
            self._children = index
        return self._children


__all__ = ["IdIndex"]
