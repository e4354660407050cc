"""Runs of chunk indexes: the line indexes (:mod:`.chunk_index`) of many consecutive chunks
kept together in one row, so that a session written one append at a time (one small chunk
each) loads from a few hundred rows instead of one row per append.

An append that leaves :data:`RUN_CHUNKS` chunks or more after the last run writes, in its own
transaction, runs of :data:`RUN_CHUNKS` chunks each (:func:`plan_runs`); the chunks themselves
are never changed. A run holds, per chunk, its line count, size and the body of its index
(its lines' fields; a chunk without an intact index is marked and scanned when loaded), and a
CRC-32 of all that. Loading uses the runs that check out from line 1 on
(:func:`covered_prefix`, :func:`decode_run`) and the chunks' own rows after them; a run that
does not check out is replaced by the indexes of its chunks (:mod:`.indexed_load`).

Layout: ``TRN1``, u32 chunk count, u32 CRC-32 of the body (little-endian); the body is the
chunk table (three little-endian i64 a chunk: line count, size, index body length or -1 for
none; the chunks follow each other from the run's first line), then the index bodies, in
order.
"""

from __future__ import annotations

import struct
import sys
import zlib
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate, compress, repeat
from operator import ne
from typing import Any

from tether.core.storage.chunk_index import HEAD_SIZE, index_ok

RUN_CHUNKS = 256  # chunks in one run
MAGIC = b"TRN1"
_HEAD = struct.Struct("<4sII")
_WIDTH = 3  # i64 fields a chunk
_LITTLE = sys.byteorder == "little"
ChunkRow = tuple[int, int, int, Any]  # first line, line count, size, line index (or None)
StoredRun = tuple[int, int, Any]  # first line, last line, the run's bytes


@dataclass
class DecodedRun:
    """A run's chunks (``(first line, count, size, None)``) and the spans ``(start, stop,
    body)`` of consecutive chunks among them whose index bodies it holds (``body``: joined)."""

    chunks: list[ChunkRow]
    spans: list[tuple[int, int, bytes]]


def encode_run(rows: Sequence[ChunkRow]) -> bytes:
    """The run of the consecutive chunks ``rows`` (their indexes are checked here: a chunk
    whose index is not intact is kept without one)."""
    table = array("q")
    bodies = []
    for _, count, size, index in rows:
        body = bytes(index[HEAD_SIZE:]) if index_ok(index, count) else None
        table.extend((count, size, -1 if body is None else len(body)))
        if body is not None:
            bodies.append(body)
    if not _LITTLE:
        table.byteswap()
    body = table.tobytes() + b"".join(bodies)
    return _HEAD.pack(MAGIC, len(rows), zlib.crc32(body)) + body


def decode_run(blob: Any, first_line: int, last_line: int) -> DecodedRun | None:
    """The chunks of a run stored for lines ``first_line``…``last_line``; ``None`` when it
    does not check out (magic, CRC, line counts that add up to those lines, index lengths
    that add up to the bodies)."""
    if not blob or len(blob) < HEAD_SIZE:
        return None
    magic, count, crc = _HEAD.unpack_from(blob)
    body = memoryview(blob)[HEAD_SIZE:]
    table_size = 8 * _WIDTH * count
    if magic != MAGIC or not count or len(body) < table_size or zlib.crc32(body) != crc:
        return None
    table = array("q")
    table.frombytes(body[:table_size])
    if not _LITTLE:
        table.byteswap()
    counts, sizes, lengths = (table[k::_WIDTH].tolist() for k in range(_WIDTH))
    if sum(counts) != last_line - first_line + 1 or min(counts) < 1 or min(sizes) < 0:
        return None
    firsts = list(accumulate(counts[:-1], initial=first_line))
    chunks = list(zip(firsts, counts, sizes, repeat(None)))
    bodies = bytes(body[table_size:])
    if min(lengths) >= 0:  # the usual case: every chunk has its index
        return DecodedRun(chunks, [(0, count, bodies)]) if sum(lengths) == len(bodies) else None
    if min(lengths) < -1 or sum(compress(lengths, map(ne, lengths, repeat(-1)))) != len(bodies):
        return None
    spans: list[tuple[int, int, bytes]] = []
    at = 0
    start = None
    for i, length in enumerate([*lengths, -1]):
        if length >= 0 and start is None:
            start, span_from = i, at
        if length >= 0:
            at += length
        elif start is not None:
            spans.append((start, i, bodies[span_from:at]))
            start = None
    return DecodedRun(chunks, spans)


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
    """The runs to write for the chunks after the last run, ``pending`` (in order): as many
    full runs of :data:`RUN_CHUNKS` chunks as they make (the rest waits for more appends)."""
    out = []
    for at in range(0, len(pending) - RUN_CHUNKS + 1, RUN_CHUNKS):
        group = pending[at : at + RUN_CHUNKS]
        last = group[-1]
        out.append((group[0][0], last[0] + last[1] - 1, encode_run(group)))
    return out


__all__ = [
    "MAGIC",
    "RUN_CHUNKS",
    "ChunkRow",
    "DecodedRun",
    "StoredRun",
    "covered_prefix",
    "decode_run",
    "encode_run",
    "plan_runs",
]
