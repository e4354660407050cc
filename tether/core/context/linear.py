"""A long one-branch session file's context with one read of each line to encode it, on two
processes.

The usual way (:mod:`tether.core.storage.jsonl_scan_split`, then :mod:`.parallel`) indexes
the whole file (ids, parents, types of every line, put together in one table), then reads the
branch's lines again to encode them. For the commonest large file — one branch from its first
entry to its last, nothing skipped, no compaction — that index is known in advance: each
entry's parent is the entry on the line before. :func:`linear_context` cuts the file after its
header into pieces at line starts, and parent and child take tasks from a queue (as
:mod:`.parallel` does): first each piece is checked (:func:`~.linear_pieces.check_piece`: by
the scanner's rules, without parsing, a few times cheaper than indexing it), then each piece
is parsed and encoded (:func:`~.linear_pieces.piece_batches`). Each process checks that no
id comes twice among the pieces it checked; before the parent encodes anything it compares
the ids the child checked (their hashes, in memory the two share: :class:`_SharedChecks`) with
its own. The parent then joins what the pieces found: the first entry has no parent, each
piece's first entry's parent is the last of the piece before, no id is used twice, and each
piece's parsed entries are the ones its check read (their digests are equal).

Anything else gives ``None`` and the caller takes the usual way, which finds and reports what
is odd: a blank, malformed, glued line, an escaped id, a line in another key order, a
compaction, a second header, an entry type :data:`~.linear_pieces.KNOWN_TYPES` does not hold,
a second root or a branch, a duplicate id, a last entry that is a ``custom`` one (it may be a
leaf marker), a header that is not the first line or is older than version 3, a file that got
shorter, a child that failed. Since every piece is checked before any is encoded, such a file
costs the check of the pieces before the odd line (a tenth of the usual way's time at most)
and the one piece each process may be encoding when it is found; a probe of the first and
last lines (:func:`_probe`) turns most of them away before the fork.
"""

from __future__ import annotations

import mmap
import os
import stat
import tempfile
import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate
from typing import IO, Any

from tether.core.context.encoded import EncodedContext, EncodedPart
from tether.core.context.linear_pieces import (
    KNOWN_KINDS,
    CheckedPiece,
    EncodedPiece,
    NotLinear,
    check_piece,
    piece_batches,
    tree_columns,
)
from tether.core.context.parallel import SHARED_SPILL_BYTES, ForkedChild, Piece, encode_batches
from tether.core.context.stream import ContextStream
from tether.core.storage.jsonl_index import parse_json_line
from tether.core.storage.jsonl_scan_split import can_fork

LINEAR_BYTES = 32 << 20  # smaller files: the usual way (its scan is a fraction of a second)
PIECES = 24
PIECE_BYTES = 8 << 20
MAX_PIECES = 127  # a task is one byte in the queue, and each piece is two tasks
PROBE_BYTES = 1 << 20
HEADER_BYTES = 1 << 20
MIN_LINE_BYTES = 48  # no line the checks let through is shorter (its newline included)
_NO_PART = EncodedPart(0, 0, 0, [], [])


@dataclass
class LinearContext:
    """What ``session context`` reports of a one-branch file."""

    header: dict[str, Any]
    leaf_id: str
    entry_count: int
    encoded: EncodedContext
    stream: ContextStream


def linear_context(path: str, *, min_bytes: int = LINEAR_BYTES) -> LinearContext | None:
    """The context at the leaf of the session file at ``path`` when it is one clean branch
    of ``min_bytes`` or more (see the module docstring), else ``None``."""
    if not can_fork():
        return None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size < min_bytes:
            return None
        return _linear(fd, info.st_size)
    except (NotLinear, OSError):
        return None
    finally:
        os.close(fd)


def _linear(fd: int, size: int) -> LinearContext | None:
    header, body = _header(fd)
    _probe(fd, body, size)
    pieces = _cut(fd, body, size)
    import pickle  # noqa: F401 - before the fork: the child uses it at once

    work = _Work(fd, pieces)
    done: dict[int, Piece] = {}
    own = tempfile.TemporaryFile(prefix="tether-context-")
    child = ForkedChild(work)
    work.child_ended = child.ended
    try:
        child.take_pieces(lambda index: work.encode(index, done, own))
        work.compare_ids(done)  # if no encoding task came its way
        from_child = child.result()
    except BaseException:
        child.stop()
        raise
    finally:
        work.shared.memory.close()  # the child is gone
    if from_child is None:  # it found the file odd, or failed
        return None
    done.update(from_child)
    count = len(pieces)
    checked = [done[index][2][1] for index in range(count)]
    read = [done[count + index][2][1] for index in range(count)]
    _join(checked, read)
    encoded = EncodedContext()
    stream = ContextStream(())
    for index in range(count, 2 * count):
        part, segments, (settings, _) = done[index]
        encoded.adopt(part, segments)
        stream.follow(settings)
    entries = sum(piece.count for piece in read)
    return LinearContext(header, read[-1].last_id, entries, encoded, stream)


def _header(fd: int) -> tuple[dict[str, Any], int]:
    """The header on the first line (nothing before it, no blank around it, version 3 or
    later) and where the line after it starts."""
    from tether.core.storage.jsonl_scan import header_error
    from tether.core.storage.migration import header_version

    head = os.pread(fd, HEADER_BYTES, 0)
    end = head.find(b"\n")
    if end < 0:
        raise NotLinear
    line = head[:end]
    if line != line.strip() or not line.startswith(b'{"type":"session"'):
        raise NotLinear
    try:
        record = parse_json_line(line)
    except ValueError:
        raise NotLinear from None
    if header_error(record) or header_version(record) < 3:
        raise NotLinear
    return record, end + 1


def _probe(fd: int, body: int, size: int) -> None:
    """The first and last lines of the body, checked without parsing (a branch, a
    compaction near either end: turned away before any work is forked)."""
    for start in (body, max(body, size - PROBE_BYTES)):
        data = os.pread(fd, min(PROBE_BYTES, size - start), start)
        first = 0 if start == body else data.find(b"\n") + 1
        last = data.rfind(b"\n")
        if last <= first:
            continue
        kinds, ids, parents = tree_columns(data[first:last].split(b"\n"))
        quoted = [b'"%s"' % entry_id for entry_id in ids[:-1]]
        root = start != body or parents[0] == b"null"  # the body's first entry is the root
        if not root or list(parents[1:]) != quoted or not KNOWN_KINDS.issuperset(kinds):
            raise NotLinear
        if last == len(data) - 1 and start + len(data) == size and kinds[-1] == b"custom":
            raise NotLinear  # the last entry may be a leaf marker


def _cut(fd: int, body: int, size: int) -> list[tuple[int, int]]:
    """The body in pieces (byte ranges), each starting at a line start."""
    pieces = min(max(PIECES, -(-(size - body) // PIECE_BYTES)), MAX_PIECES)
    step = (size - body) // pieces
    starts = [body]
    searched = body  # no line starts between a cut point and here: each byte read once
    for at in (body + piece * step for piece in range(1, pieces)):
        if at >= searched:
            searched = _line_start(fd, at, size)
            if starts[-1] < searched < size:
                starts.append(searched)
    return list(zip(starts, [*starts[1:], size], strict=True))


def _line_start(fd: int, at: int, size: int) -> int:
    """Where the first line starting after byte ``at`` starts (``size``: none does)."""
    while at < size:
        data = os.pread(fd, 64 << 10, at)
        if not data:
            break
        newline = data.find(b"\n")
        if newline >= 0:
            return at + newline + 1
        at += len(data)
    return size


def _join(checked: list[CheckedPiece], read: list[EncodedPiece]) -> None:
    """``NotLinear`` unless the pieces make one branch, each read as checked (that no id
    comes twice, :meth:`_Work.compare_ids` made sure)."""
    if checked[0].first_parent != b"null" or checked[-1].last_kind == b"custom":
        raise NotLinear
    for before, after in zip(checked, checked[1:], strict=False):
        if after.first_parent != b'"%s"' % before.last_id:
            raise NotLinear
    for piece, parsed in zip(checked, read, strict=True):
        if (piece.digest, piece.count) != (parsed.digest, parsed.count):
            raise NotLinear  # the parsed entries are not the ones checked


class _SharedChecks:
    """What each piece's check found, in memory both processes share (mapped before the
    fork; each piece's part written by the process that checked it): its digest, and its
    ids' hashes, which the parent compares with its own before it encodes anything. The
    first 16 bytes per piece hold the digest and how many ids (0: not checked yet)."""

    def __init__(self, pieces: list[tuple[int, int]]) -> None:
        self.room = [(stop - start) // MIN_LINE_BYTES + 1 for start, stop in pieces]
        self.at = list(accumulate([8 * n for n in self.room], initial=16 * len(pieces)))
        self.memory = mmap.mmap(-1, self.at[-1])  # untouched pages cost nothing

    def put(self, piece: int, checked: CheckedPiece) -> None:
        hashes = checked.hashes
        if len(hashes) <= self.room[piece]:  # (always)
            at = self.at[piece]
            self.memory[at : at + 8 * len(hashes)] = hashes.tobytes()
            digest = checked.digest.to_bytes(8, "little", signed=True)
            self.memory[16 * piece : 16 * piece + 16] = digest + checked.count.to_bytes(8, "little")

    def digest(self, piece: int) -> tuple[int, int] | None:
        """The piece's digest and count, once checked."""
        found = self.memory[16 * piece : 16 * piece + 16]
        count = int.from_bytes(found[8:], "little")
        return (int.from_bytes(found[:8], "little", signed=True), count) if count else None

    def hashes(self, piece: int) -> array[int] | None:
        """The piece's ids' hashes, once checked."""
        found = self.digest(piece)
        if found is None:
            return None
        hashes = array("q")
        hashes.frombytes(self.memory[self.at[piece] : self.at[piece] + 8 * found[1]])
        return hashes


class _Work:
    """The tasks of :func:`_linear` (for :class:`~.parallel.ForkedChild`): task ``i`` checks
    piece ``i``, task ``len(pieces) + i`` encodes it."""

    def __init__(self, fd: int, pieces: list[tuple[int, int]]) -> None:
        self.fd, self.ranges = fd, pieces
        self.pieces = [*pieces, *pieces]  # the tasks: one byte each in the queue
        self.seen: set[int] = set()  # the hashes of the ids this process has checked
        self.shared = _SharedChecks(pieces)
        self.parent = os.getpid()
        self.child_ended: Callable[[], bool] = lambda: True
        self.compared = False

    def compare_ids(self, done: dict[int, Piece]) -> None:
        """In the parent, once: the ids the child checked against its own (``NotLinear``
        for one in both), as soon as the child has checked its pieces. ``NotLinear`` too
        when the child ended without checking them all (it failed: its result says so)."""
        if self.compared or os.getpid() != self.parent:
            return
        self.compared = True
        waiting = [piece for piece in range(len(self.ranges)) if piece not in done]
        while waiting:
            ended = self.child_ended()  # before the pass: what it published is all there
            later = []
            for piece in waiting:
                hashes = self.shared.hashes(piece)
                if hashes is None:
                    later.append(piece)
                elif not self.seen.isdisjoint(hashes):
                    raise NotLinear  # an id used twice (or two ids' hashes the same)
            if later and ended:
                raise NotLinear
            waiting = later
            if waiting:
                time.sleep(0.0005)

    def encode(self, task: int, done: dict[int, Piece], file: IO[bytes]) -> None:
        """Do ``task`` (encoding at the end of ``file``); note it in ``done``.
        ``NotLinear`` when its piece is odd."""
        start, stop = self.pieces[task]
        count = len(self.ranges)
        if task < count:
            checked = check_piece(self.fd, start, stop, self.seen, self.ranges[0][0])
            if stop == self.ranges[-1][1] and checked.last_kind == b"custom":
                raise NotLinear  # the last entry may be a leaf marker
            self.shared.put(task, checked)
            checked.hashes = array("q")  # compared through the shared memory, not sent
            done[task] = (_NO_PART, [], (None, checked))
            return
        self.compare_ids(done)  # before the first piece is encoded here
        found = EncodedPiece()
        try:
            encoded, stream = encode_batches(
                piece_batches(self.fd, start, stop, found),
                False,
                spill_bytes=SHARED_SPILL_BYTES,
                spill_file=file,
            )
        except NotLinear:
            raise
        except Exception as error:  # its check, in the other process, may not be done yet
            raise NotLinear from error
        published = self.shared.digest(task - count)  # compared now, not after all the work
        if published is not None and published != (found.digest, found.count):
            raise NotLinear  # the parsed entries are not the ones checked
        segment = encoded.flush_to_file()
        done[task] = (encoded.part(), [segment], (stream.settings(), found))


__all__ = ["LINEAR_BYTES", "LinearContext", "NotLinear", "linear_context"]
