"""Lines left in their store until a row needs them: the scanner's tables only.

A large file's lines past what the scanner kept (:mod:`.file_lines`), or a database's stored
chunks (:mod:`tether.builtin_plugins.storage.sql.indexed_load`), stay where they are: the row
holds :data:`UNLOADED` instead of its line, and the table's :attr:`LinesLeft.line_source`
fetches the lines of the rows asked for (``load(table, rows)``). The kernel's
:class:`~tether.storage.EntryTable` keeps every line it was given.
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any

UNLOADED: Any = object()  # a row whose line is still in its store (``line_source``)


class LinesLeft:
    """Mixed into the JSONL scanner's :class:`~.line_table.LineTable` before the kernel's
    :class:`~tether.storage.EntryTable`: rows whose lines its ``line_source`` fetches."""

    ids: list[str]
    parents: list[Any]
    types: list[str]
    linenos: array[int]
    offsets: array[int]
    _raw: list[Any]
    _roles: list[Any]
    line_source: Any = None  # fetches unloaded lines: ``load(table, rows)``

    if TYPE_CHECKING:

        def complete_columns(self) -> None: ...  # the entry table's

    def add_unloaded(
        self, ids: list[str], parents: list[Any], types: list[str], roles: list[Any], line: int
    ) -> None:
        """Add rows whose lines (from ``line`` on) the :attr:`line_source` fetches when asked
        for (a database's stored index gave their tree fields and message roles)."""
        count, start = len(ids), len(self.ids)
        self.ids += ids
        self.parents += parents
        self.types += types
        self.linenos.extend(range(line, line + count))
        self.offsets.extend([-1] * count)
        self._raw += [UNLOADED] * count
        self.complete_columns()  # the new rows' timestamps, roles and entries: not known yet
        self._roles[start:] = roles

    def unloaded(self, rows: list[int]) -> list[int]:
        """The rows of ``rows`` whose lines were not fetched yet."""
        raw = self._raw
        return [row for row in rows if raw[row] is UNLOADED]

    def set_line(self, row: int, line: bytes) -> None:
        """The fetched line of an unloaded row."""
        if self._raw[row] is UNLOADED:
            self._raw[row] = line

    def _need(self, rows: list[int]) -> None:
        """Fetch the lines of ``rows`` still in the store."""
        if self.line_source is not None:
            self.line_source.load(self, rows)

    def raw_line(self, row: int) -> bytes | None:
        """The row's original bytes while it is unparsed (fetched first when left in the
        store), else ``None``."""
        raw = self._raw[row]
        if raw is UNLOADED:
            self._need([row])
            raw = self._raw[row]
        return raw  # type: ignore[no-any-return]


__all__ = ["UNLOADED", "LinesLeft"]
