"""A long run of a table's rows parsed a batch at a time, for writing out again as JSON.

:func:`parse_batch` gives what :meth:`EntryTable.iter_entries` (``to_write=True``) gives for a
batch of rows, with the per-row work done in a few passes over the whole batch: every line
parsed by orjson, then each entry's ``id`` and ``type`` compared with the index's in two list
comparisons. Any batch that does not check out so simply — a row parsed already, a line orjson
refuses, an entry that disagrees with the index — is read row by row by ``iter_entries``
itself, which finds and reports the broken line exactly as it always does.
"""

from __future__ import annotations

from itertools import repeat
from typing import Any

from tether.builtin_plugins.storage.format import fastjson
from tether.builtin_plugins.storage.jsonl.scan.line_table import LineTable
from tether.storage import EntryTable

BATCH_ROWS = 64
_LINES = (bytes, memoryview)  # a line read elsewhere: its bytes, or a view of a larger read


def parse_batch(
    table: LineTable,
    rows: list[int],
    lines: list[Any] | None = None,
    *,
    drop: bool = True,
) -> list[dict[str, Any]]:
    """The entries of ``rows`` (a batch: parsed, not kept). ``lines``: the rows' lines read
    elsewhere (bytes, or views of a larger read; ``None`` for a row parsed already), else the
    table's. ``drop``: as ``iter_entries``' (a broken line raises ``StaleRow`` after dropping
    it, or ``BrokenLine``)."""
    items: list[Any] = table.lines_or_entries(rows) if lines is None else lines
    entries = _parsed_at_once(table, rows, items)
    if entries is not None:
        return entries
    out = []
    for row, item in zip(rows, items, strict=True):
        if item is None or item.__class__ is dict:  # parsed already
            out.append(table.entry(row))
            continue
        entry = fastjson.loads_to_write(item) if item.__class__ in _LINES else None
        if not _matches(table, row, entry):  # iter_entries finds what is wrong and says it
            entry = next(table.iter_entries([row], to_write=True, drop=drop))
        out.append(entry)
    return out


def _parsed_at_once(
    table: EntryTable, rows: list[int], lines: list[Any]
) -> list[dict[str, Any]] | None:
    """The entries when every row is unparsed (``lines`` all bytes or views of them) and
    every line an entry that agrees with the index; else ``None``."""
    try:
        entries = list(map(fastjson.loads_orjson(), lines))
        ids = list(map(dict.get, entries, repeat("id")))
        types = list(map(dict.get, entries, repeat("type")))
    except (ValueError, TypeError):  # a refused line, a row without one, a non-object
        return None
    if ids != list(map(table.ids.__getitem__, rows)):
        return None
    if types != list(map(table.types.__getitem__, rows)):
        return None
    return entries


def _matches(table: EntryTable, row: int, entry: Any) -> bool:
    return (
        entry.__class__ is dict
        and entry.get("id") == table.ids[row]
        and entry.get("type") == table.types[row]
    )


__all__ = ["BATCH_ROWS", "parse_batch"]
