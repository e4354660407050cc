"""A stored chunk's line index: what the JSONL scanner finds in each of its lines, kept next
to the chunk so that a database session loads without scanning its bytes.

The index is computed when the chunk is written (in the same transaction) by the scanner
itself (:class:`~tether.builtin_plugins.storage.jsonl.scan.scanner.LineScanner`), so it says what a
scan says.
A chunk gets one only when each of its lines is one plain entry row of the scanner's fast path
(pi's key order, or a custom entry read from its tail): then the index holds, per line, its
byte length, type, message role (what the context plan asks first), id and parentId. Any other
chunk (blank, malformed, torn or glued lines, a second header, an entry the scanner must parse
in full, a field with a quote or a unit separator) gets none and is scanned when it is loaded,
as is a chunk whose index does not check out (:func:`index_ok`, :func:`decode_indexes`).

Layout: ``TIX2``, u32 line count, u32 CRC-32 of the body (little-endian); the body is UTF-8
text, five fields a line, each followed by ``\\x1f``: length, type, role, id, parentId (``"``
for null). The bodies of consecutive chunks joined are one such text: a session of many small
chunks (one per append) is decoded in a few passes, not chunk by chunk.
"""

from __future__ import annotations

import struct
import sys
import zlib
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat
from operator import getitem
from typing import Any

from tether.builtin_plugins.storage.jsonl.scan.scanner import LineScanner
from tether.storage import StaleRow

MAGIC = b"TIX2"
NULL = '"'  # null (a parentId or a role): no field of the fast path holds a quote
SEP = "\x1f"
FIELDS = 5
_HEAD = struct.Struct("<4sII")
HEAD_SIZE = _HEAD.size
_HEAD_PART, _BODY_PART = slice(0, HEAD_SIZE), slice(HEAD_SIZE, None)
_MAGIC_NUMBER = int.from_bytes(MAGIC, "little")
_LITTLE = sys.byteorder == "little"
_NULLS = {NULL: None}


@dataclass
class IndexedRows:
    """The decoded rows of consecutive chunks (``lengths``: each line's byte length, as text
    or a number)."""

    types: list[str]
    roles: list[str | None]
    ids: list[str]
    parents: list[str | None]
    lengths: list[Any]


def encode_chunk_index(lines: Sequence[bytes]) -> bytes | None:
    """The index of a chunk of ``lines`` (entry lines after a header), or ``None`` when the
    chunk must be scanned when loaded (see the module docstring)."""
    count = len(lines)
    if not count:
        return None
    scanner = LineScanner(validate_all=False)
    scanner.header = {}  # the lines follow a header
    table = scanner.table
    try:
        scanner.feed(b"\n".join(lines) + b"\n")
        if table.problems or scanner.parsed or len(table) != count:
            return None
        table.complete_columns()
        roles = [table.role(r) if t == "message" else None for r, t in enumerate(table.types)]
    except (StaleRow, ValueError):  # a line the scanner or parser refuses: scanned on load
        return None
    if len(table) != count:
        return None
    fields: list[str] = []
    nulls = 0
    for length, kind, role, entry_id, parent in zip(
        map(len, lines), table.types, roles, table.ids, table.parents, strict=True
    ):
        nulls += (role is None) + (parent is None)
        fields += (
            str(length),
            kind,
            NULL if role is None else role,
            entry_id,
            NULL if parent is None else parent,
        )
    text = SEP.join(fields) + SEP
    if text.count(SEP) != FIELDS * count or text.count(NULL) != nulls:
        return None  # a field holds a separator or a quote
    try:
        body = text.encode("utf-8")
    except UnicodeEncodeError:
        return None
    return _HEAD.pack(MAGIC, count, zlib.crc32(body)) + body


def intact_bodies(blobs: list[Any], counts: list[int]) -> list[bytes] | None:
    """The bodies of ``blobs`` when each is an intact index of its count of lines (as
    :func:`index_ok`, checked in a few passes over all of them); else ``None``."""
    if not blobs:
        return []
    if None in blobs or min(map(len, blobs)) <= HEAD_SIZE:
        return None
    heads = array("I", b"".join(map(getitem, blobs, repeat(_HEAD_PART))))
    if not _LITTLE:
        heads.byteswap()
    bodies = list(map(getitem, blobs, repeat(_BODY_PART)))
    if (
        heads[0::3] != array("I", [_MAGIC_NUMBER]) * len(blobs)
        or heads[1::3] != array("I", counts)
        or heads[2::3] != array("I", map(zlib.crc32, bodies))
    ):
        return None
    return bodies


def index_ok(blob: Any, line_count: int) -> bool:
    """Whether ``blob`` is an intact index of ``line_count`` lines (magic, count, CRC)."""
    if not blob or len(blob) <= _HEAD.size:
        return False
    magic, count, crc = _HEAD.unpack_from(blob)
    return magic == MAGIC and count == line_count and zlib.crc32(blob[_HEAD.size :]) == crc


def decode_indexes(bodies: Sequence[bytes], line_count: int) -> IndexedRows | None:
    """The rows of consecutive chunks from the bodies of their intact indexes
    (:func:`intact_bodies`), ``line_count`` lines in all; ``None`` when the text does not
    check out. (The lengths are checked against a chunk's size when its lines are fetched.)"""
    try:
        text = b"".join(bodies).decode("utf-8")
    except UnicodeDecodeError:
        return None
    fields = text.split(SEP)
    if len(fields) != FIELDS * line_count + 1:
        return None
    if len(_NAMES) > 4096:  # types and roles are few; odd sessions must not grow it forever
        _NAMES.clear()
        _NAMES[NULL] = None
    parents = fields[4::FIELDS]
    return IndexedRows(
        list(map(_NAMES.__getitem__, fields[1::FIELDS])),
        list(map(_NAMES.__getitem__, fields[2::FIELDS])),
        fields[3::FIELDS],
        list(map(_NULLS.get, parents, parents)),
        fields[0:-1:FIELDS],
    )


class _Interned(dict[str, Any]):
    """Each type or role name once (interned), ``"`` as ``None``: one pass a column."""

    def __missing__(self, key: str) -> Any:
        value = self[key] = sys.intern(key)
        return value


_NAMES = _Interned({NULL: None})


def intern_name(name: str) -> Any:
    """A type or role name, once for all (``"``: ``None``)."""
    return _NAMES[name]


__all__ = [
    "HEAD_SIZE",
    "MAGIC",
    "IndexedRows",
    "decode_indexes",
    "encode_chunk_index",
    "index_ok",
    "intact_bodies",
    "intern_name",
]
