"""The JSONL store's fast way to a context's entries, and the context encoded for output.

:func:`entries_of` is the store's ``context_batches`` (see
:class:`tether.hookspecs.store.ContextBatches`): the same entries as the kernel's
:func:`~tether.core.session.context_rows.entry_batches`, a batch at a time, each batch's
lines read again from the session file in one read (a run of a branch: mostly consecutive
lines) and parsed by orjson at once (:func:`~..scan.entry_batches.parse_batch`), not kept.
:func:`encode_context` encodes a session's context as ``session context --json`` writes it
(:class:`~.encoded.EncodedContext`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from itertools import accumulate
from operator import lt
from typing import Any

from tether.builtin_plugins.storage.jsonl.context.encoded import EncodedContext
from tether.builtin_plugins.storage.jsonl.scan import file_lines, line_table
from tether.builtin_plugins.storage.jsonl.scan.block_lines import newline_ends
from tether.builtin_plugins.storage.jsonl.scan.entry_batches import BATCH_ROWS, parse_batch
from tether.storage import ContextStream, EntryBatch, EntryTable

ONE_READ_BYTES = 4 << 20  # a batch's lines further apart: each line read on its own
_PLUS_ONE = (1).__add__  # a line's length and its newline
_MINUS_ONE = (-1).__add__  # where a line's newline is, from where the next line starts


def entries_of(
    table: EntryTable, rows: list[int], setting_only: set[int], *, drop: bool = True
) -> Iterator[EntryBatch]:
    """The entries of ``rows`` a batch at a time
    (:func:`~tether.builtin_plugins.storage.jsonl.scan.entry_batches.
    parse_batch`: parsed, not kept), with which of them only set: what a
    :class:`ContextStream` reads."""
    if len(rows) > line_table.FAST_PARSER_ROWS and isinstance(table, line_table.LineTable):
        yield from _read_batches(table, rows, setting_only, drop)
        return
    entries = list(table.iter_entries(rows, to_write=True, drop=drop))
    yield entries, _settings(rows, setting_only)


def _read_batches(
    table: line_table.LineTable, rows: list[int], setting_only: set[int], drop: bool
) -> Iterator[EntryBatch]:
    """:func:`entries_of` a batch at a time, each batch's lines read again from the session
    file (:func:`read_lines`) and dropped with it, not kept in the table."""
    fd = file_lines.open_indexed(table.file)  # a batch's lines read at once: a small
    try:  # buffer, used again and again (a piece's would be fresh memory each time)
        size = table.file[3] if fd is not None else 0  # type: ignore[index]
        for at in range(0, len(rows), BATCH_ROWS):
            batch = rows[at : at + BATCH_ROWS]
            lines = None
            if fd is not None:
                lines = _lines_in_one_read(fd, batch, table, size)
                if lines is None:
                    lines = read_lines(table, batch, fd)
            yield parse_batch(table, batch, lines, drop=drop), _settings(batch, setting_only)
    finally:
        if fd is not None:
            os.close(fd)


def _lines_in_one_read(
    fd: int, batch: list[int], table: line_table.LineTable, size: int
) -> list[bytes | memoryview | None] | None:
    """The lines of ``batch`` in one read, from the first row's line to the start of the row
    after the last (a run of a branch: mostly consecutive lines), each found by where it
    starts. ``None`` (then :func:`read_lines` reads each row's line): a row parsed already,
    the table's last row, a first row after the last (a compaction's, before its kept
    entries), a range holding a quarter more rows than the batch (a branch among
    others) or more than :data:`ONE_READ_BYTES`, or that the file no longer holds, a row whose
    line is not in it (rows out of file order).

    Rows in file order with no other line between them than other rows' (a long branch:
    nearly every batch) take the short way (:func:`_lines_of_run`)."""
    offsets = table.offsets
    first, last = batch[0], batch[-1]
    count = len(batch)
    if not first <= last < len(offsets) - 1 or last + 1 - first > count * 5 // 4:
        return None  # the first row after the last, or many rows between: other branches
    if table.parsed_any(batch):
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
    ends = newline_ends(data)
    if len(ends) == last + 1 - first and all(map(lt, batch, batch[1:])):
        # one line for each row from first to last; every one of them when no row is skipped
        picks = None if count == len(ends) else [row - first for row in batch]
        return _lines_of_run(data, ends, offsets[first : last + 2].tolist(), picks)
    found: list[bytes | None] = data[:-1].split(b"\n")  # type: ignore[assignment]
    starts = accumulate(map(_PLUS_ONE, map(len, found)), initial=start)  # type: ignore[arg-type]
    by_start = dict(zip(starts, found, strict=False))  # one more start: the end
    lines = list(map(by_start.get, [offsets[row] for row in batch]))
    return None if None in lines else lines


def _lines_of_run(
    data: bytes, ends: list[int], starts: list[int], picks: list[int] | None
) -> list[Any] | None:
    """Lines ``picks`` (``None``: all) of ``data``, which holds one line for each of
    ``starts`` but the last (``starts``: where each line starts in the file, then the end of
    the last; ``ends``: where each newline of ``data`` is, as many), cut where the index says
    (``split`` would copy every line: 3-4 times slower); ``None`` unless each newline is where
    the index says the line ends (the file changed since it was indexed). Every newline of
    ``data`` then ends one of the lines: none is inside one."""
    cuts = list(map((-starts[0]).__add__, starts))
    if ends != list(map(_MINUS_ONE, cuts[1:])) or not all(map(lt, cuts, ends)):
        return None  # a newline not where a line ends (or an empty line)
    view = memoryview(data).__getitem__  # each line a view of the read: parsed, never copied
    if picks is None:
        return list(map(view, map(slice, cuts, ends)))
    cut, end = cuts.__getitem__, ends.__getitem__
    return list(map(view, map(slice, map(cut, picks), map(end, picks))))


def _settings(rows: list[int], setting_only: set[int]) -> list[bool] | None:
    """Which of ``rows`` only set (``None``: none)."""
    if not setting_only or setting_only.isdisjoint(rows):
        return None
    return [row in setting_only for row in rows]


def encode_context(
    session: Any, leaf_id: Any, *, keep_items: bool = False
) -> tuple[EncodedContext, ContextStream]:
    """The context of ``session`` at ``leaf_id`` encoded as ``session context --json``
    writes it, and its stream (for the thinking level and model): the messages of
    ``session.stream_context``, encoded a batch at a time."""
    return session.stream_context(lambda stream: encode_stream(stream, keep_items), leaf_id)


def encode_stream(
    stream: ContextStream, keep_items: bool, **options: Any
) -> tuple[EncodedContext, ContextStream]:
    """The messages of ``stream`` encoded, and the stream (read to its end)."""
    encoded = EncodedContext(keep_items=keep_items, **options)
    encoded.extend_batches(stream.batches())
    return encoded, stream


def read_lines(
    table: EntryTable, rows: list[int], fd: int | None = None
) -> list[bytes | None] | None:
    """The lines of the unparsed ``rows`` read again from the session file the table was
    read from (``None`` for a parsed row), or ``None`` when there is no such file or it is
    not the one read (:func:`~..scan.file_lines.read_lines`; ``fd``: that file open already,
    :func:`~..scan.file_lines.open_indexed`). Read again, not kept: a 1M-entry session's
    lines are 880 MB."""
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


__all__ = ["encode_context", "encode_stream", "entries_of", "read_lines"]
