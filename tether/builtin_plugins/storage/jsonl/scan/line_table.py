"""The JSONL store's entry table: the kernel's, reading more from the raw lines, faster.

Timestamps and message roles are read from a line in pi's key order without parsing it, and
bulk work (more than ``FAST_PARSER_ROWS`` rows) parses with orjson
(:mod:`~tether.builtin_plugins.storage.format.fastjson`, values proven equal to ``json``'s by
tests/test_fastjson.py), in batches. Same answers as
:class:`~tether.core.storage.entry_table.EntryTable` (tests/test_fast_context.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from tether.builtin_plugins.storage.format import fastjson
from tether.builtin_plugins.storage.jsonl.scan.lazy_ids import LazyIds
from tether.builtin_plugins.storage.jsonl.scan.lines_left import LinesLeft
from tether.storage import EntryTable, Problem

FAST_PARSER_ROWS = 500  # above: the fast parser (its import, a few ms, pays for itself)
_BATCH_ROWS = 256  # lines parsed per batch by :meth:`LineTable.entries`

_STAMP = re.compile(rb'"parentId":(?:null|"[^"\\]*"),"timestamp":"([^"\\]*)"')
# a message entry's role, in pi's key order: trusted only where the line holds no other
# "role" or "message" key and no escape that could spell one (else the line is parsed: its last
# "message" and "role" keys win)
_ROLE = re.compile(
    rb'\{"type":"message","id":"[^"\\]*","parentId":(?:null|"[^"\\]*"),'
    rb'"timestamp":"[^"\\]*","message":\{"role":"([^"\\]*)"'
)


def duplicate_ids(
    ids: list[str], linenos: Sequence[int]
) -> tuple[dict[str, list[int]], list[Problem]]:
    """The ids used by more than one entry (id → rows) and one problem for each (pi keeps the
    last one; so do we)."""
    rows_of: dict[str, list[int]] = {}
    for row, entry_id in enumerate(ids):
        rows_of.setdefault(entry_id, []).append(row)
    duplicates = {i: rows for i, rows in rows_of.items() if len(rows) > 1}
    problems = []
    for entry_id, rows in duplicates.items():
        lines = [linenos[r] for r in rows]
        where = ", ".join(str(n) for n in lines[:-1]) + f" and {lines[-1]}"
        message = f"duplicate id {entry_id} at lines {where} (the last one is used, as in pi)"
        problems.append(Problem(lines[-1], "duplicate-id", message))
    return duplicates, problems


class FastParser(Protocol):
    """A faster ``JSON.parse`` (:attr:`LineTable.fast`). Its values must be
    :func:`~tether.storage.parse_json_line`'s, byte for byte when written again; ``None``
    means "not sure": the reference parser decides."""

    def loads_or_none(self, raw: bytes) -> Any:
        """The line's value, or ``None`` where the reference parser must decide."""

    def loads_many_or_none(self, raws: list[bytes]) -> list[Any]:
        """Each line's value, or ``None`` where the reference parser must decide."""

    def loads_to_write(self, raw: bytes | memoryview) -> Any:
        """A value only written again as JSON (an integer beyond 64 bits may be a float)."""


class LineTable(LazyIds, LinesLeft, EntryTable):
    """An :class:`EntryTable` filled from JSONL lines (see the module docstring), its id index
    built when first asked for (:class:`~.lazy_ids.LazyIds`), its lines left in the file or
    database until needed (:class:`~.lines_left.LinesLeft`)."""

    fast: FastParser | None = fastjson  # None: the kernel's reference parser alone

    def finish_scan(self, parsed: dict[int, dict[str, Any]]) -> None:
        """Complete the table after the scanner filled the row columns (``parsed``: rows it
        already had to parse in full)."""
        self.complete_columns()
        for row, record in parsed.items():
            self._parsed[row] = record
        if self.index_ids():
            self.duplicates, found = duplicate_ids(self.ids, self.linenos)
            self.problems += found

    def parsed_any(self, rows: list[int]) -> bool:
        """Whether any of ``rows`` is parsed."""
        return list(map(self._parsed.__getitem__, rows)).count(None) != len(rows)

    def lines_or_entries(self, rows: list[int]) -> list[Any]:
        """Each row's line (fetched first when left in the file), or its entry when parsed."""
        self._need(rows)
        raw, parsed = self._raw, self._parsed
        return [parsed[r] if raw[r] is None else raw[r] for r in rows]

    def entries(self, rows: list[int]) -> list[dict[str, Any]]:
        """The kernel's, parsing in batches with :attr:`fast` (one long-number search per
        batch) and sharing the index's id strings (~10 MB per 100k entries)."""
        fast = self.fast if len(rows) > FAST_PARSER_ROWS else None
        if fast is None:
            return super().entries(rows)
        self._need(rows)
        parsed, raw = self._parsed, self._raw
        ids, types, parents = self.ids, self.types, self.parents
        out: list[dict[str, Any]] = []
        append = out.append
        for at in range(0, len(rows), _BATCH_ROWS):
            batch = rows[at : at + _BATCH_ROWS]
            todo = [row for row in batch if parsed[row] is None]
            ready = dict(zip(todo, fast.loads_many_or_none([raw[r] for r in todo]), strict=True))
            for row in batch:
                entry = parsed[row]
                if entry is None:
                    entry = ready.get(row)
                    if (
                        entry.__class__ is dict
                        and entry.get("id") == ids[row]
                        and entry.get("type") == types[row]
                    ):
                        entry["id"] = ids[row]
                        parent = entry.get("parentId")
                        if parent is not None and parent == parents[row]:
                            entry["parentId"] = parents[row]
                        parsed[row] = entry
                        raw[row] = None
                    else:
                        entry = self._parse_row(row)
                append(entry)
        return out

    def _row_parser(self, count: int, to_write: bool) -> Callable[[bytes], Any] | None:
        """:meth:`iter_entries` parses with :attr:`fast` (``to_write``: its
        ``loads_to_write``) above ``FAST_PARSER_ROWS`` rows."""
        fast = self.fast if count > FAST_PARSER_ROWS else None
        if fast is None:
            return None
        return fast.loads_to_write if to_write else fast.loads_or_none

    def _raw_unparsed(self, row: int) -> bytes | None:
        return None if self.is_parsed(row) else self.raw_line(row)

    def _sniff_stamp(self, row: int) -> str | None:
        raw = self._raw_unparsed(row)
        match = _STAMP.search(raw, 0, 600) if raw is not None else None
        return match.group(1).decode("utf-8", "replace") if match is not None else None

    def _sniff_role(self, row: int) -> str | None:
        raw = self._raw_unparsed(row)
        if raw is None or b"\\u" in raw:  # an escape may spell a key
            return None
        if raw.count(b'"role":') != 1 or raw.count(b'"message":') != 1:
            return None
        match = _ROLE.match(raw)
        return match.group(1).decode("utf-8", "replace") if match is not None else None


__all__ = ["FAST_PARSER_ROWS", "FastParser", "LineTable", "duplicate_ids"]
