"""The entry table of one session: tree fields of every entry, full entries parsed on demand.

Loading a 100k-entry, 87 MB session must not build 100k dicts. A store's scanner fills the
columns ``ids``/``parents``/``types`` from the bytes; an entry is parsed when asked for, its
dict replacing the raw line (a store's table may read timestamps and roles from it).
:meth:`EntryTable.iter_entries` parses without keeping anything, optionally only some fields
(``outlines``). Lines may stay in the file or database until a row needs them
(:attr:`EntryTable.line_source`). Parsing is :func:`parse_json_line` (pi's ``JSON.parse``, the
reference); a store may give the table a :class:`FastParser` for bulk work.

A line whose prefix looked fine but which is broken further on is found when it is parsed: the
row is removed, the problem recorded (with its line number) and :attr:`EntryTable.generation`
bumped; :class:`StaleRow` tells the caller to recompute (pi never had that entry).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Protocol

from tether.core.storage.entry_rules import (
    BadRef,
    BrokenLine,
    Problem,
    StaleRow,
    duplicate_ids,
    entry_problem,
    json_error,
    loads_std,
    parent_of,
)
from tether.core.storage.id_index import IdIndex

FAST_PARSER_ROWS = 500  # above: the table's fast parser (its import, a few ms, pays for itself)
FileIdentity = tuple[str, int, int, int]  # the file a table was read from: path, dev, ino, size

_UNKNOWN: Any = object()
_UNLOADED: Any = object()  # a row whose line is still in its store (``line_source``)
UNLOADED = _UNLOADED  # for the loaders that leave lines in their store


_BATCH_ROWS = 256  # lines parsed per batch by :meth:`EntryTable.entries`


class FastParser(Protocol):
    """A faster ``JSON.parse`` a store may give the tables it fills (:attr:`EntryTable.fast`),
    for bulk work. Its values must be :func:`parse_json_line`'s, byte for byte when written
    again; ``None`` means "not sure": the reference parser decides."""

    def loads_or_none(self, raw: bytes) -> Any:
        """The line's value, or ``None`` where the reference parser must decide."""

    def loads_many_or_none(self, raws: list[bytes]) -> list[Any]:
        """Each line's value, or ``None`` where the reference parser must decide."""

    def loads_to_write(self, raw: bytes) -> Any:
        """A value only written again as JSON (an integer beyond 64 bits may be a float)."""


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

    fast: FastParser | None = None  # set by the store that fills the table (see FastParser)

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
        self._by_id: dict[str, int] | None = {}  # None: not built yet (see :attr:`by_id`)
        self.problems: list[Problem] = []
        self.generation = 0
        self.duplicates: dict[str, list[int]] = {}  # id → rows, for ids used more than once
        self.on_drop: Callable[[int], None] | None = None  # told the row of a dropped entry
        self._children: dict[Any, list[int]] | None = None
        self.line_source: Any = None  # fetches unloaded lines: ``load(table, rows)``

    def __len__(self) -> int:
        return len(self.ids)

    def finish_scan(self, parsed: dict[int, dict[str, Any]]) -> None:
        """Complete the table after the scanner filled the row columns (``parsed``: rows it
        already had to parse in full)."""
        self.complete_columns()
        for row, record in parsed.items():
            self._parsed[row] = record
        if self.index_ids():
            self.duplicates, found = duplicate_ids(self.ids, self.linenos)
            self.problems += found

    def complete_columns(self) -> None:
        """Extend the lazily filled columns to the rows the scanner added."""
        missing = len(self.ids) - len(self._parsed)
        self._stamps.extend([_UNKNOWN] * missing)
        self._roles.extend([_UNKNOWN] * missing)
        self._parsed.extend([None] * missing)

    def add_unloaded(
        self, ids: list[str], parents: list[Any], types: list[str], roles: list[Any], line: int
    ) -> None:
        """Add rows whose lines (from ``line`` on) the :attr:`line_source` fetches when asked
        for (a database's stored index gave their tree fields and message roles)."""
        self.complete_columns()
        count = len(ids)
        self.ids += ids
        self.parents += parents
        self.types += types
        self.linenos.extend(range(line, line + count))
        self.offsets.extend([-1] * count)
        self._raw += [_UNLOADED] * count
        self._stamps += [_UNKNOWN] * count
        self._roles += roles
        self._parsed += [None] * count

    def lines_or_entries(self, rows: list[int]) -> list[Any]:
        """Each row's line (fetched first when left in a store), or its entry when parsed."""
        self._need(rows)
        raw, parsed = self._raw, self._parsed
        return [parsed[r] if raw[r] is None else raw[r] for r in rows]

    def unloaded(self, rows: list[int]) -> list[int]:
        """The rows of ``rows`` whose lines were not fetched yet."""
        raw = self._raw
        return [row for row in rows if raw[row] is _UNLOADED]

    def set_line(self, row: int, line: bytes) -> None:
        """The fetched line of an unloaded row."""
        if self._raw[row] is _UNLOADED:
            self._raw[row] = line

    def _need(self, rows: list[int]) -> None:
        if self.line_source is not None:
            self.line_source.load(self, rows)

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
        raw = self._raw[row]
        if raw is _UNLOADED:
            self._need([row])
            raw = self._raw[row]
        return raw

    def entry(self, row: int) -> dict[str, Any]:
        """The full entry of ``row`` (parsed once and cached)."""
        parsed = self._parsed[row]
        if parsed is not None:
            return parsed
        return self._parse_row(row)

    def entries(self, rows: list[int]) -> list[dict[str, Any]]:
        """The full entries of ``rows``, parsed once and cached (a tight loop for bulk use)."""
        fast = self.fast if len(rows) > FAST_PARSER_ROWS else None
        self._need(rows)
        parsed, raw, ids, types = self._parsed, self._raw, self.ids, self.types
        bulk = fast is not None  # parsed in batches: one long-number search per batch
        out: list[dict[str, Any]] = []
        append = out.append
        for at in range(0, len(rows), _BATCH_ROWS):
            batch = rows[at : at + _BATCH_ROWS]
            todo = [row for row in batch if parsed[row] is None] if bulk else []
            values = fast.loads_many_or_none([raw[r] for r in todo]) if todo else []  # type: ignore[union-attr]
            ready = dict(zip(todo, values, strict=True))
            for row in batch:
                entry = parsed[row]
                if entry is None:
                    entry = ready.get(row)
                    entry_id = ids[row]
                    if (
                        entry.__class__ is dict
                        and entry.get("id") == entry_id
                        and entry.get("type") == types[row]
                    ):
                        entry["id"] = entry_id  # share the index's strings (~10 MB per 100k)
                        parent = entry.get("parentId")
                        if parent is not None and parent == self.parents[row]:
                            entry["parentId"] = self.parents[row]
                        parsed[row] = entry
                        raw[row] = None
                    else:
                        entry = self._parse_row(row)
                append(entry)
        return out

    def iter_entries(
        self,
        rows: list[int],
        outlines: Mapping[str, Callable[[bytes], Any]] | None = None,
        *,
        to_write: bool = False,
        drop: bool = True,
    ) -> Iterator[dict[str, Any]]:
        """The entries of ``rows`` one at a time, without caching the ones not parsed yet: a
        single pass over a large branch holds one entry at a time. A malformed line raises
        :class:`StaleRow` (after dropping it), as :meth:`entry` does; with ``drop=False``,
        :class:`BrokenLine` and the table stays as it is (the caller decides in which order
        broken lines are dropped).

        ``outlines`` maps an entry type to a parser that returns only some fields of a valid
        line, or ``None`` when unsure (the line is then parsed in full); it must never accept
        a line the full parser rejects. Outlined entries have at least ``type`` and ``id``.
        Like the fast parser, outlines are for bulk work (more than ``FAST_PARSER_ROWS``).
        ``to_write``: the entries are only written out again as JSON (integers beyond 64 bits
        may be floats, see :meth:`FastParser.loads_to_write`).
        """
        fast = self.fast if len(rows) > FAST_PARSER_ROWS else None
        bulk = fast is not None
        self._need(rows)
        parsed, raw, ids, types = self._parsed, self._raw, self.ids, self.types
        parse = None if fast is None else fast.loads_to_write if to_write else fast.loads_or_none
        outline_of = (outlines if bulk and outlines else {}).get
        for row in rows:
            entry = parsed[row]
            if entry is None:
                outline = outline_of(types[row])
                if outline is not None:
                    entry = outline(raw[row])
                elif parse is not None:
                    entry = parse(raw[row])
                if not (
                    entry.__class__ is dict
                    and entry.get("id") == ids[row]
                    and entry.get("type") == types[row]
                ):
                    entry = self._parse_row(row, cache=False, drop=drop)
            yield entry

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
        for column in (
            self.ids,
            self.parents,
            self.types,
            self.linenos,
            self.offsets,
            self._raw,
            self._stamps,
            self._roles,
            self._parsed,
        ):
            del column[row]
        self.by_id = dict(zip(self.ids, range(len(self.ids)), strict=True))
        self._children = None
        self.generation += 1
        if self.on_drop is not None:
            self.on_drop(row)


__all__ = [
    "FAST_PARSER_ROWS",
    "BadRef",
    "BrokenLine",
    "EntryTable",
    "FastParser",
    "FileIdentity",
    "Problem",
    "StaleRow",
    "UNLOADED",
    "entry_problem",
    "json_error",
    "loads_std",
    "parent_of",
    "parse_json_line",
    "parse_json_object",
]
