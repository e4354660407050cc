"""Encode a long branch's context on two cores: a forked process takes its share of the work.

Parsing and encoding a 100k-message branch is CPU work in one Python thread (orjson holds the
interpreter lock). :func:`encode_rows` cuts the context's rows into :data:`PIECES` pieces (more
for a very long branch: at most :data:`PIECE_ROWS` rows each) and forks a child process (it
shares the loaded session, copy-on-write); parent and child take
pieces from a pipe holding one byte per piece until it is empty (a byte goes to one reader),
so when one of them gets less CPU the other simply takes more pieces. Each encodes a piece
into its own temporary file; the child sends back, through a second pipe, what each of its
pieces holds (counts, ``llmMessages`` ranges, the thinking level and model it saw). The parent
then adopts the pieces in order as segments of one :class:`EncodedContext` — the bytes are
never copied back. Same bytes as one process, in the same order.

Where forking is not safe or useful (:func:`~tether.core.storage.jsonl_scan_split.can_fork`:
Linux, a second CPU, no other thread) or below :data:`PARALLEL_ROWS` rows, one process does it
all. When the child fails (a malformed line it found, a crash), the parent encodes the child's
pieces itself, so a malformed line is found there, as in one process. The child never writes to
the session, stdout or stderr, and never uses a line source that is not ``fork_safe`` (a
database connection): the parent fetches those lines before it forks.
"""

from __future__ import annotations

import os
import signal
import tempfile
from collections.abc import Iterator, Sequence
from itertools import accumulate
from typing import IO, Any, Protocol

from tether.core.context.encoded import EncodedContext, EncodedPart
from tether.core.context.stream import ContextStream, EntryBatch
from tether.core.storage import file_lines, jsonl_index
from tether.core.storage.entry_batches import BATCH_ROWS, parse_batch
from tether.core.storage.jsonl_index import BrokenLine, EntryTable, use_fast_parser
from tether.core.storage.jsonl_scan_split import can_fork, receive_from_child, send_to_parent

PARALLEL_ROWS = 20_000
PIECES = 24
PIECE_ROWS = 8192  # smaller pieces: less time where one process has finished and waits
MAX_PIECES = 255  # a piece is one byte in the queue
# a piece's bytes go to its file this often: the buffer's memory is used again and again (a
# larger one grows into memory touched for the first time, see jsonl_scan.BLOCK_SIZE)
SHARED_SPILL_BYTES = 256 << 10
ONE_READ_BYTES = 4 << 20  # a batch's lines further apart: each line read on its own
_PLUS_ONE = (1).__add__  # a line's length and its newline

Piece = tuple[EncodedPart, list[list[Any]], tuple[Any, ...]]  # part, its segments, settings


class Tasks(Protocol):
    """What a :class:`ForkedChild` and its parent share out: one byte in the queue for each
    of ``pieces``; ``encode(index, done, file)`` does one, noting it in ``done``."""

    pieces: Sequence[Any]

    def encode(self, index: int, done: dict[int, Piece], file: IO[bytes]) -> None: ...


def entries_of(
    table: EntryTable, rows: list[int], setting_only: set[int], *, drop: bool = True
) -> Iterator[EntryBatch]:
    """The entries of ``rows`` a batch at a time (:func:`~tether.core.storage.entry_batches.
    parse_batch`: parsed, not kept), with which of them only set: what a
    :class:`ContextStream` reads."""
    if len(rows) > jsonl_index.FAST_PARSER_ROWS:
        yield from _read_batches(table, rows, setting_only, drop)
        return
    entries = list(table.iter_entries(rows, to_write=True, drop=drop))
    yield entries, _settings(rows, setting_only)


def _read_batches(
    table: EntryTable, rows: list[int], setting_only: set[int], drop: bool
) -> Iterator[EntryBatch]:
    """:func:`entries_of` a batch at a time, each batch's lines read again from the session
    file (:func:`read_lines`) and dropped with it, not kept in the table."""
    use_fast_parser()
    fd = file_lines.open_indexed(table.file)  # a batch's lines read at once: a small
    try:  # buffer, used again and again (a piece's would be fresh memory each time)
        offsets, parsed = table.offsets, table.is_parsed
        size = table.file[3] if fd is not None else 0  # type: ignore[index]
        for at in range(0, len(rows), BATCH_ROWS):
            batch = rows[at : at + BATCH_ROWS]
            lines = None
            if fd is not None:
                lines = _lines_in_one_read(fd, batch, offsets, size, parsed)
                if lines is None:
                    lines = read_lines(table, batch, fd)
            yield parse_batch(table, batch, lines, drop=drop), _settings(batch, setting_only)
    finally:
        if fd is not None:
            os.close(fd)


def _lines_in_one_read(
    fd: int, batch: list[int], offsets: Any, size: int, parsed: Any
) -> list[bytes | None] | None:
    """The lines of ``batch`` in one read, from the first row's line to the start of the row
    after the last (a run of a branch: mostly consecutive lines), each found by where it
    starts. ``None`` (then :func:`read_lines` reads each row's line): a row parsed already,
    the table's last row, a first row after the last (a compaction's, before its kept
    entries), a range holding a quarter more rows than the batch (a branch among
    others) or more than :data:`ONE_READ_BYTES`, or that the file no longer holds, a row whose
    line is not in it (rows out of file order)."""
    first, last = batch[0], batch[-1]
    if not first <= last < len(offsets) - 1 or last + 1 - first > len(batch) * 5 // 4:
        return None  # the first row after the last, or many rows between: other branches
    if any(map(parsed, batch)):
        return None
    start, stop = offsets[first], offsets[last + 1]
    if start < 0 or stop <= offsets[last] or stop > size or stop - start > ONE_READ_BYTES:
        return None
    try:
        data = os.pread(fd, stop - start, start)
    except OSError:
        return None
    if len(data) != stop - start or data[-1:] != b"\n":
        return None
    found = data[:-1].split(b"\n")
    starts = accumulate(map(_PLUS_ONE, map(len, found)), initial=start)  # one more: the end
    by_start = dict(zip(starts, found, strict=False))
    lines = list(map(by_start.get, [offsets[row] for row in batch]))
    return None if None in lines else lines


def _settings(rows: list[int], setting_only: set[int]) -> list[bool] | None:
    """Which of ``rows`` only set (``None``: none)."""
    if not setting_only or setting_only.isdisjoint(rows):
        return None
    return [row in setting_only for row in rows]


def encode_rows(
    table: EntryTable,
    ordered: list[int],
    setting_only: set[int],
    *,
    keep_items: bool = False,
    workers: int = 1,
    parallel_rows: int | None = None,
) -> tuple[EncodedContext, ContextStream]:
    """The context of ``ordered`` rows (see ``SessionReader.stream_context``) encoded, and
    its stream (for the thinking level and model). ``workers`` > 1: shared with a child
    process when there are ``parallel_rows`` (:data:`PARALLEL_ROWS`) rows or more, ``fork``
    and a second CPU."""
    limit = PARALLEL_ROWS if parallel_rows is None else parallel_rows
    if workers < 2 or len(ordered) < limit or not can_fork():
        return encode_batches(entries_of(table, ordered, setting_only), keep_items)
    import pickle  # noqa: F401 - before the fork: the child uses it at once

    source = table.line_source
    if source is not None and not getattr(source, "fork_safe", False):
        # a database's lines come through its connection, which a child must never use
        source.load(table, ordered)
    pieces = _cut(ordered, setting_only)
    done: dict[int, Piece] = {}
    work = _Work(table, pieces, setting_only, keep_items)
    try:
        own = tempfile.TemporaryFile(prefix="tether-context-")
        child = ForkedChild(work)
    except OSError:  # no temporary folder, no fork (EAGAIN, ENOMEM): one process
        return encode_batches(entries_of(table, ordered, setting_only), keep_items)
    try:
        # the parent's pieces leave a broken line where it is: one process drops them in
        # file order (each drop shortens the branch), and so must two
        child.take_pieces(lambda index: work.encode(index, done, own, drop=False))
        from_child = child.result()
    except BrokenLine:
        child.stop()
        done.clear()  # in order, with drops: the first broken line is found first
        from_child = None
    except BaseException:
        child.stop()
        raise
    done.update(from_child or {})
    encoded = EncodedContext(keep_items=keep_items)
    stream = ContextStream(())
    for index in range(len(pieces)):
        if index not in done:  # the child failed: its pieces here
            work.encode(index, done, own)
        part, segments, settings = done[index]
        encoded.adopt(part, segments)
        stream.follow(settings)
    return encoded, stream


def encode_batches(
    batches: Iterator[EntryBatch], keep_items: bool, **options: Any
) -> tuple[EncodedContext, ContextStream]:
    """The messages of ``batches`` encoded (in this process), and their stream."""
    stream = ContextStream(batches)
    encoded = EncodedContext(keep_items=keep_items, **options)
    encoded.extend_batches(stream.batches())
    return encoded, stream


def _cut(ordered: list[int], setting_only: set[int]) -> list[list[int]]:
    """``ordered`` in pieces (see the module docstring); the rows that only set come in the
    first."""
    head = ordered[: len(setting_only) + 1]  # they come first (after the compaction, if any)
    last_setting = max((i for i, r in enumerate(head) if r in setting_only), default=-1)
    pieces = min(max(PIECES, -(-len(ordered) // PIECE_ROWS)), MAX_PIECES)
    size = max(-(-len(ordered) // pieces), last_setting + 1, 1)
    return [ordered[at : at + size] for at in range(0, len(ordered), size)]


def read_lines(
    table: EntryTable, rows: list[int], fd: int | None = None
) -> list[bytes | None] | None:
    """The lines of the unparsed ``rows`` read again from the session file the table was
    read from (``None`` for a parsed row), or ``None`` when there is no such file or it is
    not the one read (:func:`~tether.core.storage.file_lines.read_lines`; ``fd``: that file
    open already, :func:`~tether.core.storage.file_lines.open_indexed`). Both processes
    read them so: while the child lives, the loaded lines' objects are shared with it, and
    touching them (their reference counts) would copy the memory pages they are on — a
    1M-entry session's lines are 880 MB."""
    parsed, offsets = table.is_parsed, table.offsets
    unparsed = [i for i, row in enumerate(rows) if not parsed(row)]
    wanted = [offsets[rows[i]] for i in unparsed]
    if fd is None:
        found = file_lines.read_lines(table.file, wanted)
    else:
        try:
            found = file_lines.read_lines_at(fd, wanted, table.file[3])  # type: ignore[index]
        except OSError:
            found = None
    if found is None:
        return None
    lines: list[bytes | None] = [None] * len(rows)
    for i, line in zip(unparsed, found, strict=True):
        lines[i] = line
    return lines


class _Work:
    """The pieces to encode, and how."""

    def __init__(
        self, table: EntryTable, pieces: list[list[int]], setting_only: set[int], keep: bool
    ) -> None:
        self.table, self.pieces, self.setting_only, self.keep = table, pieces, setting_only, keep

    def encode(
        self, index: int, done: dict[int, Piece], file: IO[bytes], drop: bool = True
    ) -> None:
        """Encode piece ``index`` at the end of ``file``; note it in ``done``. The piece's
        lines are read again from the session file when it can be (see :func:`read_lines`)."""
        encoded, stream = encode_batches(
            _read_batches(self.table, self.pieces[index], self.setting_only, drop),
            self.keep,
            spill_bytes=SHARED_SPILL_BYTES,
            spill_file=file,
        )
        segment = encoded.flush_to_file()
        done[index] = (encoded.part(), [segment], stream.settings())


class ForkedChild:
    """A forked process taking pieces (``take_pieces`` in both processes)."""

    def __init__(self, work: Tasks) -> None:
        self._file: IO[bytes] = tempfile.TemporaryFile(prefix="tether-context-")
        parent = os.getpid()
        queue_read, queue_write = os.pipe()
        os.write(queue_write, bytes(range(len(work.pieces))))  # one byte per piece
        os.close(queue_write)  # empty: end of file
        self._queue = queue_read
        result_read, result_write = os.pipe()
        try:
            self.pid = os.fork()
        except OSError:
            for fd in (queue_read, result_read, result_write):
                os.close(fd)
            raise
        if self.pid == 0:  # the child: never returns
            os.close(result_read)
            _run_child(self, work, result_write, parent)
        os.close(result_write)
        self._result = result_read

    def take_pieces(self, encode: Any, parent: int = 0) -> None:
        """``encode(index)`` for each piece taken from the queue, until it is empty (or,
        in the child, until the ``parent`` process is gone)."""
        while byte := os.read(self._queue, 1):
            if parent and os.getppid() != parent:
                raise SystemExit(1)  # nobody waits for the rest
            encode(byte[0])

    def ended(self) -> bool:
        """Whether the child has finished taking pieces: its results are on their way, or it
        is gone (it writes them only at its end)."""
        import select

        if self._result < 0:
            return True
        waiting = select.poll()  # (``select.select`` refuses a descriptor past 1023)
        waiting.register(self._result, select.POLLIN)
        return bool(waiting.poll(0))

    def result(self) -> dict[int, Piece] | None:
        """The child's pieces, once it ended; ``None`` if it failed."""
        self._close("_queue")  # the parent takes no more pieces
        found: dict[int, tuple[EncodedPart, list[Any], tuple[Any, ...]]] | None
        found = receive_from_child(self._result, self.pid)
        self._close("_result")
        if found is None:  # failed or cut short: the parent does the work
            return None
        file = self._file
        return {
            i: (part, [[file, *where]] if where is not None else [], settings)
            for i, (part, where, settings) in found.items()
        }

    def stop(self) -> None:
        """End the child (the parent failed or gave up), reap it, close the pipes."""
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except OSError:
            pass
        self._close("_queue")
        self._close("_result")

    def _close(self, name: str) -> None:
        """Close the pipe end kept as attribute ``name``, once (a closed number may be
        another file's by now)."""
        fd = getattr(self, name)
        if fd >= 0:
            setattr(self, name, -1)
            os.close(fd)


def _run_child(child: ForkedChild, work: Tasks, result: int, parent: int) -> None:
    code = 1
    try:
        done: dict[int, Piece] = {}
        child.take_pieces(lambda index: work.encode(index, done, child._file), parent)
        # the file is sent as (start, size) in the child's file, which the parent holds
        found = {
            i: (part, segs[0][1:] if segs else None, settings)
            for i, (part, segs, settings) in done.items()
        }
        send_to_parent(result, found)
        code = 0
    except BaseException:  # noqa: BLE001 - any failure: the parent does the work
        _drain(child._queue)  # and, at once, all of it: it need not wait for this one
    finally:
        os._exit(code)  # no atexit handlers, no flushing of the parent's buffers


def _drain(queue: int) -> None:
    """Take every piece left in the queue (none is done: the parent finds them missing)."""
    try:
        while os.read(queue, 256):
            pass
    except OSError:
        pass


__all__ = [
    "PARALLEL_ROWS",
    "PIECES",
    "ForkedChild",
    "Tasks",
    "encode_batches",
    "encode_rows",
    "entries_of",
    "read_lines",
]
