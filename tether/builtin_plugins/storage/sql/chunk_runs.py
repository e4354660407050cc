"""Runs of chunk indexes: the line indexes (:mod:`.chunk_index`) of consecutive chunks kept
together in one row, in columns, so that a session loads from a few rows and a few passes —
whether it was written one append at a time (one small chunk each) or imported (a few large
chunks).

An append that leaves :data:`RUN_CHUNKS` chunks or :data:`RUN_LINES` lines or more after the
last run writes, in its own transaction, the runs they complete (:func:`plan_runs`); the chunks
themselves are never changed. A run holds, per chunk, its line count, its size and whether its
index is intact (a chunk without is scanned when loaded), the index's fields of every indexed
line in columns, and a CRC-32 of all that. Loading uses the runs that check out from line 1 on
(:func:`covered_prefix`, :func:`decode_run`) and the chunks' own rows after them; a run that
does not check out gives way to the indexes of its chunks (:mod:`.indexed_load`).

Layout: ``TRN1``, u32 chunk count, u32 CRC-32 of the body (little-endian). The body: six i64:
chunks in the table (0 when each chunk is one indexed line: sizes are the lines' lengths),
indexed lines, lines whose parent is not the id on the line before ("forks"), bytes of the
names, of the ids, of the forks' parents; the chunk table (three i64 a chunk: line count,
size, 1 if indexed else 0); each line's length (i64), type and role (u16, numbers in the
names); each fork's line (i64); the names (``\\x1f``-separated, the first for none), the ids,
the forks' parents (``\\x1f``-separated, ``"`` for none).
"""

from __future__ import annotations

import struct
import sys
import zlib
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate, compress, repeat
from typing import Any

from tether.builtin_plugins.storage.sql.chunk_index import (
    HEAD_SIZE,
    NULL,
    SEP,
    IndexedRows,
    decode_indexes,
    index_ok,
    intact_bodies,
    intern_name,
)

RUN_CHUNKS = 1024  # chunks in one run at most
RUN_LINES = 4096  # lines that close a run before it has RUN_CHUNKS chunks
MAGIC = b"TRN1"
_HEAD = struct.Struct("<4sII")
_SIZES = struct.Struct("<6q")
_WIDTH = 3  # i64 fields a chunk
_LITTLE = sys.byteorder == "little"
_MAX_NAMES = 1 << 16
ChunkRow = tuple[int, int, int, Any]  # first line, line count, size, line index (or None)
StoredRun = tuple[int, int, Any]  # first line, last line, the run's bytes


@dataclass
class DecodedRun:
    """A run's chunks (first lines, line counts, sizes: columns, no tuple a chunk) and the
    spans ``(start, stop, rows)`` of consecutive chunks among them that have their index."""

    firsts: list[int]
    counts: list[int]
    sizes: list[int]
    spans: list[tuple[int, int, IndexedRows]]

    @property
    def chunks(self) -> list[ChunkRow]:
        """The chunks as ``(first line, count, size, None)``."""
        return list(zip(self.firsts, self.counts, self.sizes, repeat(None)))


def _arrays(*parts: array[Any]) -> bytes:
    if not _LITTLE:
        for part in parts:
            part.byteswap()
    return b"".join(part.tobytes() for part in parts)


def encode_run(rows: Sequence[ChunkRow]) -> bytes:
    """The run of the consecutive chunks ``rows`` (their indexes are checked here: a chunk
    whose index is not intact is kept without one)."""
    table, lengths, types, roles = array("q"), array("q"), array("H"), array("H")
    forks = array("q")  # the lines whose parent is not the id on the line before
    names: dict[Any, int] = {None: 0}
    ids: list[str] = []
    parents: list[str] = []
    for _, count, size, _index, decoded in _decoded(rows):
        try:
            line_lengths = list(map(int, decoded.lengths)) if decoded else []
        except ValueError:
            decoded = None
        table.extend((count, size, 0 if decoded is None else 1))
        if decoded is None:
            continue
        lengths.extend(line_lengths)
        types.extend(names.setdefault(t, len(names)) for t in decoded.types)
        roles.extend(names.setdefault(r, len(names)) for r in decoded.roles)
        for entry_id, parent in zip(decoded.ids, decoded.parents, strict=True):
            if not ids or parent != ids[-1]:
                forks.append(len(ids))
                parents.append(NULL if parent is None else parent)
            ids.append(entry_id)
    if len(names) > _MAX_NAMES:  # never in practice: then every chunk is scanned
        return encode_run([(first, count, size, None) for first, count, size, _ in rows])
    columns = ([NULL, *list(names)[1:]], ids, parents)  # the first name: none
    texts = [SEP.join(column).encode("utf-8") for column in columns]
    if len(ids) == len(rows) and table[0::_WIDTH] == array("q", [1]) * len(rows):
        if table[1::_WIDTH] == lengths:  # one indexed line a chunk: the table says nothing
            table = array("q")
    sizes = _SIZES.pack(len(table) // _WIDTH, len(ids), len(forks), *map(len, texts))
    body = b"".join((sizes, _arrays(table), _arrays(lengths, types, roles, forks), *texts))
    return _HEAD.pack(MAGIC, len(rows), zlib.crc32(body)) + body


def _decoded(rows: Sequence[ChunkRow]) -> list[tuple[int, int, int, Any, IndexedRows | None]]:
    """``rows`` with their decoded indexes (``None``: not intact); all at once when they
    all are (a run of one-line chunks decodes in one pass)."""
    counts = [row[1] for row in rows]
    bodies = intact_bodies([row[3] for row in rows], counts)
    whole = decode_indexes(bodies, sum(counts)) if bodies is not None else None
    if whole is None:
        return [
            (
                *row,
                decode_indexes([row[3][HEAD_SIZE:]], row[1]) if index_ok(row[3], row[1]) else None,
            )
            for row in rows
        ]
    out = []
    line = 0
    for row in rows:
        out.append((*row, _slice(whole, line, line + row[1])))
        line += row[1]
    return out


def decode_run(blob: Any, first_line: int, last_line: int) -> DecodedRun | None:
    """The chunks of a run stored for lines ``first_line``…``last_line``; ``None`` when it
    does not check out (magic, CRC, line counts that add up to those lines, section sizes,
    fields that add up to its indexed lines)."""
    if not blob or len(blob) < HEAD_SIZE:
        return None
    magic, count, crc = _HEAD.unpack_from(blob)
    body = memoryview(blob)[HEAD_SIZE:]
    if magic != MAGIC or not count or len(body) < _SIZES.size or zlib.crc32(body) != crc:
        return None
    tabled, lines, forks, name_size, id_size, parent_size = _SIZES.unpack_from(body)
    sections = (8 * _WIDTH * tabled, 8 * lines, 2 * lines, 2 * lines, 8 * forks)
    ends = list(accumulate((*sections, name_size, id_size, parent_size), initial=_SIZES.size))
    if min(lines, forks, name_size, id_size, parent_size) < 0 or ends[-1] != len(body):
        return None
    if tabled not in (0, count) or not lines and not tabled:
        return None
    if tabled:
        table = _numbers("q", body[ends[0] : ends[1]])
        counts, sizes, flags = (table[k::_WIDTH].tolist() for k in range(_WIDTH))
        indexed = flags.count(1)
        if sum(counts) != last_line - first_line + 1 or min(counts) < 1 or min(sizes) < 0:
            return None
        if indexed + flags.count(0) != count:
            return None
        if (sum(counts) if indexed == count else sum(compress(counts, flags))) != lines:
            return None
        firsts = list(accumulate(counts[:-1], initial=first_line))
    elif lines != count or last_line - first_line + 1 != count:
        return None
    rows = _columns(body, ends[1:], lines) if lines else None
    if lines and rows is None:
        return None
    if not tabled:  # one indexed line a chunk: its size is the line's length
        assert rows is not None
        counts, flags = [1] * count, [1] * count
        firsts, sizes = list(range(first_line, first_line + count)), list(rows.lengths)
    return DecodedRun(firsts, counts, sizes, _spans(counts, flags, rows))


def _numbers(kind: str, data: Any) -> array[Any]:
    out = array(kind)
    out.frombytes(data)
    if not _LITTLE:
        out.byteswap()
    return out


def _columns(body: memoryview, ends: list[int], lines: int) -> IndexedRows | None:
    """The indexed lines' fields from a run's sections (``ends``: where each one starts)."""
    try:
        names = [None, *map(intern_name, bytes(body[ends[4] : ends[5]]).decode().split(SEP)[1:])]
        ids = bytes(body[ends[5] : ends[6]]).decode("utf-8").split(SEP)
        explicit = bytes(body[ends[6] : ends[7]]).decode("utf-8").split(SEP)
        types = list(map(names.__getitem__, _numbers("H", body[ends[1] : ends[2]])))
        roles = list(map(names.__getitem__, _numbers("H", body[ends[2] : ends[3]])))
    except (UnicodeDecodeError, IndexError):
        return None
    forks = _numbers("q", body[ends[3] : ends[4]]).tolist()
    if len(ids) != lines or len(explicit) != len(forks) or None in types:
        return None
    if not forks or forks[0] != 0 or min(forks) < 0 or max(forks) >= lines:
        return None
    parents: list[str | None] = [None, *ids[:-1]]  # each the id on the line before, but:
    for line, parent in zip(forks, explicit, strict=True):
        parents[line] = None if parent == NULL else parent
    lengths = _numbers("q", body[ends[0] : ends[1]]).tolist()
    return IndexedRows(types, roles, ids, parents, lengths)


def _spans(
    counts: list[int], flags: list[int], rows: IndexedRows | None
) -> list[tuple[int, int, IndexedRows]]:
    """The runs of consecutive indexed chunks and their rows (the columns' slices)."""
    if rows is None:
        return []
    if min(flags) == 1:  # the usual case: every chunk has its index
        return [(0, len(counts), rows)]
    spans = []
    line = start_line = 0
    start = None
    for i, flag in enumerate([*flags, 0]):
        if flag and start is None:
            start, start_line = i, line
        if flag:
            line += counts[i]
        elif start is not None:
            spans.append((start, i, _slice(rows, start_line, line)))
            start = None
    return spans


def _slice(rows: IndexedRows, lo: int, hi: int) -> IndexedRows:
    return IndexedRows(
        rows.types[lo:hi],
        rows.roles[lo:hi],
        rows.ids[lo:hi],
        rows.parents[lo:hi],
        rows.lengths[lo:hi],
    )


def covered_prefix(runs: Sequence[StoredRun]) -> tuple[list[StoredRun], int]:
    """The runs (in order of first line) that follow each other from line 1 on, and the last
    line they cover (0: none); the chunks after that line are read one by one."""
    kept: list[StoredRun] = []
    end = 0
    for run in runs:
        if run[0] != end + 1 or run[1] < run[0]:
            break
        kept.append(run)
        end = run[1]
    return kept, end


def plan_runs(pending: Sequence[ChunkRow]) -> list[StoredRun]:
    """The runs to write for the chunks after the last run, ``pending`` (in order): each
    closed at :data:`RUN_CHUNKS` chunks or :data:`RUN_LINES` lines (the rest waits for more
    appends)."""
    out = []
    start, lines = 0, 0
    for at, (_, count, _, _) in enumerate(pending):
        lines += count
        if at + 1 - start >= RUN_CHUNKS or lines >= RUN_LINES:
            group = pending[start : at + 1]
            last = group[-1]
            out.append((group[0][0], last[0] + last[1] - 1, encode_run(group)))
            start, lines = at + 1, 0
    return out


def due(chunks: int, lines: int) -> bool:
    """Whether chunks after the last run (so many, of so many lines) complete a run."""
    return chunks >= RUN_CHUNKS or lines >= RUN_LINES


__all__ = [
    "MAGIC",
    "RUN_CHUNKS",
    "RUN_LINES",
    "ChunkRow",
    "DecodedRun",
    "StoredRun",
    "covered_prefix",
    "decode_run",
    "due",
    "encode_run",
    "plan_runs",
]
