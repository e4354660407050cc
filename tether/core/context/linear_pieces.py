"""A piece of a one-branch session file, checked and then encoded (for :mod:`.linear`).

:func:`check_piece` reads a piece's lines as the scanner
(:mod:`~tether.core.storage.jsonl_scan`) indexes them — each entry's type, id and parent from
the prefix of pi's key order, or from a ``custom`` entry's tail — and checks that each entry's
parent is the entry before, that its type is one a one-branch context may hold
(:data:`KNOWN_TYPES`) and that no id comes twice. :func:`piece_batches` then parses the same
lines and yields their entries to encode, with a digest of the parsed entries' types, ids and
parents: equal to the check's digest only when the parsed entries are the ones the scanner
would index (a key given twice, or a file changed in between, would differ). Both raise
:class:`NotLinear` for anything else.
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

from tether.core.context.stream import EntryBatch
from tether.core.storage import fastjson
from tether.core.storage.jsonl_scan import CUSTOM_PREFIX, CUSTOM_TAIL, ENTRY_PREFIX, RECORD_START

# read, parsed and encoded at once: its memory used again and again (128 KB: 10 % slower)
BLOCK_BYTES = 64 << 10
# the entry types a one-branch context may hold here (a compaction, a header and unknown
# types go the usual way)
KNOWN_TYPES = frozenset(
    {
        "message",
        "model_change",
        "thinking_level_change",
        "label",
        "custom",
        "custom_message",
        "session_info",
        "branch_summary",
    }
)
KNOWN_KINDS = frozenset(kind.encode() for kind in KNOWN_TYPES)


class NotLinear(Exception):
    """The file is not a clean one-branch session file (the usual way finds out why)."""


@dataclass
class CheckedPiece:
    """What :func:`check_piece` found: the first entry's parent (quoted, or ``null``), the
    last entry's id and type, how many entries, their ids' hashes, the digest."""

    first_parent: bytes = b""
    last_id: bytes = b""
    last_kind: bytes = b""
    count: int = 0
    hashes: array[int] = field(default_factory=lambda: array("q"))
    digest: int = 0


@dataclass
class EncodedPiece:
    """What :func:`piece_batches` read: the last entry's id, how many entries, the digest."""

    last_id: str = ""
    count: int = 0
    digest: int = 0


def lines_of(fd: int, start: int, stop: int) -> Iterator[list[bytes]]:
    """The lines in bytes ``start``-``stop`` of the file (which end with a newline), a block
    of :data:`BLOCK_BYTES` at a time — the same blocks each time."""
    at, carry = start, b""
    longer: list[bytes] = []  # the blocks of a line longer than one
    while at < stop:
        block = os.pread(fd, min(BLOCK_BYTES, stop - at), at)
        if not block:
            raise NotLinear  # the file is shorter than it was
        at += len(block)
        end = block.rfind(b"\n")
        if end < 0:
            longer.append(block)
            continue
        if longer:
            carry, longer = b"".join([carry, *longer]), []
        yield (carry + block[:end] if carry else block[:end]).split(b"\n")
        carry = block[end + 1 :]
    if carry or longer or start == stop:
        raise NotLinear  # no newline at the end, or no line


def line_before(fd: int, start: int, body: int) -> bytes:
    """The line that ends just before byte ``start`` (a line start after ``body``)."""
    at = start - 1  # its newline
    chunks = []
    while at > body:
        step = min(64 << 10, at - body)
        chunk = os.pread(fd, step, at - step)
        if len(chunk) != step:
            raise NotLinear  # the file is shorter than it was
        at -= step
        newline = chunk.rfind(b"\n")
        if newline >= 0:
            chunks.append(chunk[newline + 1 :])
            break
        chunks.append(chunk)
    return b"".join(reversed(chunks))


def tree_columns(lines: list[bytes]) -> tuple[tuple[bytes, ...], ...]:
    """Each line's type, id and parent (``null`` or quoted) as the scanner takes them from
    its bytes: pi's key order, or a ``custom`` entry's tail. ``NotLinear`` for a line it
    would parse in full (another key order, escapes in an id, a blank line)."""
    matches = list(map(ENTRY_PREFIX.match, lines))
    if None in matches:
        columns = [
            _custom_columns(line) if found is None else found.groups()
            for found, line in zip(matches, lines, strict=True)
        ]
    else:
        columns = [found.groups() for found in matches]  # type: ignore[union-attr]
    return tuple(zip(*columns, strict=True))


def _custom_columns(line: bytes) -> tuple[bytes, bytes, bytes]:
    """A ``custom``/``custom_message`` line's type, id and parent, as the scanner reads them."""
    custom = CUSTOM_PREFIX.match(line)
    if custom is None or RECORD_START.search(line, 1) is not None:
        raise NotLinear
    tail = CUSTOM_TAIL.search(line, max(0, len(line) - 400))
    if tail is None:
        raise NotLinear
    entry_id, parent = tail.groups()
    return custom.group(1), entry_id, b"null" if parent is None else b'"%s"' % parent


def check_piece(fd: int, start: int, stop: int, seen: set[int], body: int) -> CheckedPiece:
    """The piece's lines checked as the module docstring says, the first one's parent
    against the line before it too (unless the piece starts at ``body``, the first entry's
    line); their ids' hashes go into ``seen`` (those of the pieces this process checked
    before)."""
    found = CheckedPiece()
    previous = b""  # the last id, quoted
    if start > body:
        previous = b'"%s"' % tree_columns([line_before(fd, start, body)])[1][0]
    digest = 0
    for lines in lines_of(fd, start, stop):
        kinds, ids, parents = tree_columns(lines)
        quoted = [b'"%s"' % entry_id for entry_id in ids]
        if not found.count:
            found.first_parent = parents[0]
        if previous and parents[0] != previous:
            raise NotLinear  # a branch, or a second root
        if list(parents[1:]) != quoted[:-1] or not KNOWN_KINDS.issuperset(kinds):
            raise NotLinear
        hashes = array("q", map(hash, ids))
        size = len(seen)
        seen.update(hashes)
        if len(seen) - size != len(hashes):
            raise NotLinear  # an id used twice (or two ids' hashes the same)
        found.hashes.extend(hashes)
        found.count += len(lines)
        previous = quoted[-1]
        digest = hash((digest, b"\0".join(kinds), b"\0".join(ids), b"\0".join(parents)))
    found.last_id, found.last_kind, found.digest = ids[-1], kinds[-1], digest
    return found


def piece_batches(fd: int, start: int, stop: int, found: EncodedPiece) -> Iterator[EntryBatch]:
    """The entries of the piece's lines a block at a time (for a
    :class:`~tether.core.context.stream.ContextStream`), ``found`` filled in on the way."""
    loads = fastjson.loads_orjson()
    digest = 0
    for lines in lines_of(fd, start, stop):
        try:
            entries = list(map(loads, lines))
            ids = list(map(dict.get, entries, repeat("id")))
            kinds = list(map(dict.get, entries, repeat("type")))
            parents = list(map(dict.get, entries, repeat("parentId")))
            joined = ("\0".join(kinds).encode(), "\0".join(ids).encode(), _quoted(parents))
        except (ValueError, TypeError):  # refused, not an object, not strings
            raise NotLinear from None
        if parents[1:] != ids[:-1] or (found.count and parents[0] != found.last_id):
            raise NotLinear  # a key given twice, most likely (the digests would differ)
        if not KNOWN_TYPES.issuperset(kinds):
            raise NotLinear
        digest = hash((digest, *joined))
        found.count += len(lines)
        found.last_id = ids[-1]
        yield entries, None
    found.digest = digest


def _quoted(parents: list[Any]) -> bytes:
    """The parents as :func:`tree_columns` gives them, ``\\0`` between: each quoted, the
    first ``null`` if it is ``None`` (``TypeError`` for any other that is not a string)."""
    if parents[0] is not None:
        return ('"' + '"\0"'.join(parents) + '"').encode()
    rest = parents[1:]
    return b"null\0" + ('"' + '"\0"'.join(rest) + '"').encode() if rest else b"null"


__all__ = [
    "BLOCK_BYTES",
    "KNOWN_KINDS",
    "KNOWN_TYPES",
    "CheckedPiece",
    "EncodedPiece",
    "NotLinear",
    "check_piece",
    "lines_of",
    "piece_batches",
    "tree_columns",
]
