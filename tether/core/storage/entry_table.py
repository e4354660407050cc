"""The entry table of one session: tree fields of every entry, full entries parsed on demand.

Loading a 100k-entry, 87 MB session must not build 100k dicts. A store's scanner fills the
columns ``ids``/``parents``/``types`` from the bytes; an entry is parsed when asked for, its
dict replacing the raw line (a store's table may read timestamps and roles from it).
:meth:`EntryTable.iter_entries` parses without keeping anything. A store's table may leave
lines in the store until a row needs them (the JSONL scanner's does). Parsing is
:func:`parse_json_line` (pi's ``JSON.parse``, the reference); a store's subclass may parse bulk
work faster (:meth:`EntryTable.iter_entries`).

A line whose prefix looked fine but which is broken further on is found when it is parsed: the
row is removed, the problem recorded (with its line number) and :attr:`EntryTable.generation`
bumped; :class:`StaleRow` tells the caller to recompute (pi never had that entry).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator
from typing import Any

from tether.core.storage.entry_rules import (
    BadRef,
    BrokenLine,
    Problem,
    StaleRow,
    entry_problem,
    json_error,
    loads_std,
    parent_of,
)
from tether.core.storage.id_index import IdIndex

FileIdentity = tuple[str, int, int, int]  # the file a table was read from: path, dev, ino, size

_UNKNOWN: Any = object()


def parse_json_line(raw: bytes) -> Any:
    """``JSON.parse`` of one line read as UTF-8 (bad bytes → U+FFFD); ``ValueError`` if invalid."""
    return loads_std(raw)


def parse_json_object(raw: bytes) -> dict[str, Any] | None:
    """The JSON object on one line; ``None`` for a blank, invalid or non-object line."""
    try:
        record = parse_json_line(raw)
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


class EntryTable(IdIndex):
    """The entries of one session (header excluded) in file order.

    Row ``r`` has ``ids[r]``, ``parents[r]``, ``types[r]`` and came from line ``linenos[r]``
    (1-based; 0 for entries appended in memory). ``by_id`` maps an id to its last row (a later
    duplicate wins, as in pi). An unparsed row keeps its line's bytes; parsing replaces them
    with the entry. Entries returned by :meth:`entry` are shared: treat them as read-only.
    """

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.parents: list[Any] = []
        self.types: list[str] = []
        self.linenos: array[int] = array("l")
        self.offsets: array[int] = array("q")  # where the row's line starts in the file; -1
        self.file: FileIdentity | None = None  # the file read: path, device, inode, size
        self._raw: list[bytes | None] = []  # the line of an unparsed row, else None
        self._stamps: list[Any] = []
        self._roles: list[Any] = []
        self._parsed: list[dict[str, Any] | None] = []
        self.by_id: dict[str, int] = {}  # a store's table may build it later (``IdIndex``)
        self.problems: list[Problem] = []
        self.generation = 0
        self.duplicates: dict[str, list[int]] = {}  # id → rows, for ids used more than once
        self.on_drop: Callable[[int], None] | None = None  # told the row of a dropped entry
        self._children: dict[Any, list[int]] | None = None

    def __len__(self) -> int:
        return len(self.ids)

    def complete_columns(self) -> None:
        """Extend the lazily filled columns to the rows the scanner added."""
        missing = len(self.ids) - len(self._parsed)
        self._stamps.extend([_UNKNOWN] * missing)
        self._roles.extend([_UNKNOWN] * missing)
        self._parsed.extend([None] * missing)

    def _need(self, rows: list[int]) -> None:
        """Fetch the lines of ``rows`` a store's table left in its store (this one keeps
        every line it is given)."""

    def add_record(self, record: Any, lineno: int = 0) -> int:
        """Add a parsed record; returns its row, or -1 if it is not an entry (problem noted)."""
        problem = entry_problem(record, lineno)
        if problem is not None:
            self.problems.append(problem)
            return -1
        entry_id = record["id"]
        parent = parent_of(record)
        kind = record.get("type")
        row = len(self.ids)
        self.ids.append(entry_id)
        self.parents.append(parent)
        self.types.append(kind if isinstance(kind, str) else "")
        self.linenos.append(lineno)
        self.offsets.append(-1)
        self._raw.append(None)
        self._stamps.append(_UNKNOWN)
        self._roles.append(_UNKNOWN)
        self._parsed.append(record)
        self.by_id[entry_id] = row
        if self._children is not None:
            self._children.setdefault(parent, []).append(row)
        return row

    # ---- reading ----------------------------------------------------------------------------

    def raw_line(self, row: int) -> bytes | None:
        """The row's original bytes while it is unparsed, else ``None``."""
        return self._raw[row]

    def entry(self, row: int) -> dict[str, Any]:
        """The full entry of ``row`` (parsed once and cached)."""
        parsed = self._parsed[row]
        if parsed is not None:
            return parsed
        return self._parse_row(row)

    def entries(self, rows: list[int]) -> list[dict[str, Any]]:
        """The full entries of ``rows``, parsed once and cached."""
        self._need(rows)
        entry = self.entry
        return [entry(row) for row in rows]

    def iter_entries(
        self,
        rows: list[int],
        *,
        to_write: bool = False,
        drop: bool = True,
    ) -> Iterator[dict[str, Any]]:
        """The entries of ``rows`` one at a time, without caching the ones not parsed yet: a
        single pass over a large branch holds one entry at a time. A malformed line raises
        :class:`StaleRow` (after dropping it), as :meth:`entry` does; with ``drop=False``,
        :class:`BrokenLine` and the table stays as it is (the caller decides in which order
        broken lines are dropped).

        A store's table may parse faster (:meth:`_row_parser`); an answer that is not the
        entry the index knows (id and type) goes to the reference, which says what is wrong.
        """
        self._need(rows)
        parsed, raw, ids, types = self._parsed, self._raw, self.ids, self.types
        parse = self._row_parser(len(rows), to_write)
        for row in rows:
            entry = parsed[row]
            if entry is None:
                entry = parse(raw[row]) if parse is not None else None
                if not (
                    entry.__class__ is dict
                    and entry.get("id") == ids[row]
                    and entry.get("type") == types[row]
                ):
                    entry = self._parse_row(row, cache=False, drop=drop)
            yield entry

    def _row_parser(self, count: int, to_write: bool) -> Callable[[bytes], Any] | None:
        """A faster parser of the lines of ``count`` rows (``to_write``: for output alone),
        ``None`` where it is unsure; ``None`` here: this reference parses every line in full."""
        return None

    def _parse_row(self, row: int, *, cache: bool = True, drop: bool = True) -> dict[str, Any]:
        raw = self.raw_line(row)
        assert raw is not None, "unparsed row without a line"
        record = parse_json_object(raw)
        entry_id = self.ids[row]
        if record is None or record.get("id") != entry_id or record.get("type") != self.types[row]:
            lineno = self.linenos[row]
            if not drop:
                raise BrokenLine(lineno)
            self._drop(row, json_error(raw) if record is None else "inconsistent entry")
            raise StaleRow(lineno)
        if not cache:
            return record
        record["id"] = entry_id  # share the index's strings (saves ~10 MB per 100k entries)
        parent = self.parents[row]
        if parent is not None and parent.__class__ is str and record.get("parentId") == parent:
            record["parentId"] = parent
        self._parsed[row] = record
        self._raw[row] = None
        return record

    def is_parsed(self, row: int) -> bool:
        return self._parsed[row] is not None

    def _sniff_stamp(self, row: int) -> str | None:
        """The row's timestamp read from its raw line without parsing it, when a store's
        table can (``None``: parse it)."""
        return None

    def _sniff_role(self, row: int) -> str | None:
        """The role a message entry's raw line shows, when a store's table can read it
        without parsing (``None``: parse it)."""
        return None

    def stamp(self, row: int) -> Any:
        """The entry's ``timestamp`` (read from the raw line when possible)."""
        value = self._stamps[row]
        if value is _UNKNOWN:
            value = self._sniff_stamp(row)
            if value is None:
                value = self.entry(row).get("timestamp")
            self._stamps[row] = value
        return value

    def role(self, row: int) -> str | None:
        """``message.role`` of a ``message`` entry (``None`` for other types)."""
        value = self._roles[row]
        if value is _UNKNOWN:
            value = None
            if self.types[row] == "message":
                value = self._sniff_role(row)
                if value is None:
                    message = self.entry(row).get("message")
                    value = message.get("role") if isinstance(message, dict) else None
                    value = value if isinstance(value, str) else None
            self._roles[row] = value
        return value

    def rows_of_type(self, kind: str) -> Iterator[int]:
        return (row for row, t in enumerate(self.types) if t == kind)

    def _drop(self, row: int, why: str) -> None:
        self.problems.append(Problem(self.linenos[row], "malformed", f"{why}, skipped"))
        for column in (self.ids, self.parents, self.types, self.linenos, self.offsets):
            del column[row]
        for column in (self._raw, self._stamps, self._roles, self._parsed):
            del column[row]
        self.by_id = dict(zip(self.ids, range(len(self.ids)), strict=True))
        self._children = None
        self.generation += 1
        if self.on_drop is not None:
            self.on_drop(row)


__all__ = [
    "BadRef",
    "BrokenLine",
    "EntryTable",
    "FileIdentity",
    "Problem",
    "StaleRow",
    "entry_problem",
    "json_error",
    "loads_std",
    "parent_of",
    "parse_json_line",
    "parse_json_object",
]
