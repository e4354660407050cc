"""A stored chunk's line index: what the JSONL scanner finds in each of its lines, kept next
to the chunk so that a database session loads without scanning its bytes.

The index is computed when the chunk is written (in the same transaction) by the scanner
itself (:class:`~tether.core.storage.jsonl_scan.LineScanner`), so it says what a scan says.
A chunk gets one only when each of its lines is one plain entry row of the scanner's fast path
(pi's key order, or a custom entry read from its tail): then the index holds, per line, its
byte length, type, id, parentId and, for a message, its role (what the context plan asks
first). Any other chunk (blank, malformed, torn or glued lines, a second header, an entry the
scanner must parse in full, a role with a quote or newline) gets none and is scanned when it is
loaded, as is a chunk whose index does not check out (:func:`decode_chunk_index`).

Layout: ``TIX1``, u32 line count, u32 CRC-32 of the rest, u16 type and role name counts, the
lines' byte lengths (u32 each), one type code and one role code per line (u8), then UTF-8
text, one item a line: the type names, the role names, the ids, the parents (``"`` for null).
All integers little-endian.
"""

from __future__ import annotations

import struct
import sys
import zlib
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tether.core.storage.jsonl_index import StaleRow
from tether.core.storage.jsonl_scan import LineScanner

MAGIC = b"TIX1"
NULL = '"'  # null (a parentId or a role): no id or role of the fast path holds a quote
_HEAD = struct.Struct("<4sIIHH")
_LITTLE = sys.byteorder == "little"


@dataclass
class ChunkIndex:
    """The decoded index of a chunk of ``len(ids)`` lines."""

    types: list[str]
    ids: list[str]
    parents: list[str | None]
    roles: list[str | None]
    lengths: array[int]


def _u32(values: Sequence[int] | bytes | memoryview) -> array[int]:
    out = array("I")
    if isinstance(values, (bytes, memoryview)):
        out.frombytes(values)
    else:
        out.extend(values)
    if not _LITTLE:
        out.byteswap()
    return out


def _codes(values: Sequence[str | None]) -> tuple[list[str], bytes] | None:
    """Names (``None`` as :data:`NULL`) and one code byte per value; ``None``: too many."""
    numbers: dict[str | None, int] = {}
    codes = [numbers.setdefault(v, len(numbers)) for v in values]
    if len(numbers) > 255:
        return None
    return [NULL if v is None else v for v in numbers], bytes(codes)


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
    if len(table) != count or any(r is not None and ('"' in r or "\n" in r) for r in roles):
        return None
    type_codes, role_codes = _codes(table.types), _codes(roles)
    if type_codes is None or role_codes is None:
        return None
    parents = [NULL if p is None else p for p in table.parents]
    items = [*type_codes[0], *role_codes[0], *table.ids, *parents]
    try:
        text = "\n".join(items).encode("utf-8")
    except UnicodeEncodeError:
        return None
    if text.count(b"\n") != len(items) - 1:  # a newline inside an item
        return None
    body = b"".join([_u32([len(line) for line in lines]).tobytes(), type_codes[1], role_codes[1]])
    body += text
    head = _HEAD.pack(MAGIC, count, zlib.crc32(body), len(type_codes[0]), len(role_codes[0]))
    return head + body


def decode_chunk_index(blob: Any, line_count: int, size: int) -> ChunkIndex | None:
    """The index ``blob`` of a chunk of ``line_count`` lines and ``size`` bytes; ``None`` when
    there is none or it does not check out (magic, counts, CRC, lengths, text)."""
    if not blob or len(blob) < _HEAD.size:
        return None
    magic, count, crc, type_count, role_count = _HEAD.unpack_from(blob)
    body = memoryview(blob)[_HEAD.size :]
    codes_end = 6 * count
    if magic != MAGIC or count != line_count or count < 1 or len(body) < codes_end:
        return None
    if zlib.crc32(body) != crc:
        return None
    lengths = _u32(body[: 4 * count])
    if sum(lengths) + count - 1 != size:
        return None
    type_codes, role_codes = bytes(body[4 * count : 5 * count]), bytes(body[5 * count : codes_end])
    try:
        items = bytes(body[codes_end:]).decode("utf-8").split("\n")
    except UnicodeDecodeError:
        return None
    names_end = type_count + role_count
    if len(items) != names_end + 2 * count:
        return None
    if max(type_codes) >= type_count or max(role_codes) >= role_count:
        return None
    type_names = items[:type_count]
    role_names: list[str | None] = [None if r == NULL else r for r in items[type_count:names_end]]
    parents: list[str | None] = items[names_end + count :]
    if NULL in parents:
        parents = [None if p == NULL else p for p in parents]
    return ChunkIndex(
        list(map(type_names.__getitem__, type_codes)),
        items[names_end : names_end + count],
        parents,
        list(map(role_names.__getitem__, role_codes)),
        lengths,
    )


__all__ = ["MAGIC", "ChunkIndex", "decode_chunk_index", "encode_chunk_index"]
