"""Scan a session file, leaving a large file's lines in the file.

Indexing a file (:mod:`.scanner`) is a few passes over its bytes per block — most of the time
it takes to open a 100k-entry session. From :data:`LINES_LEFT_BYTES` on, :func:`scan_file`
reads the file a block at a time and keeps none of its lines: the table reads them again
when they are needed (:class:`~.file_lines.FileLines` as its ``line_source``), so a large
session is opened without holding its bytes (on a virtual machine, memory touched for the
first time is costly: a 1M-entry file's lines are 880 MB; a 10k-entry session's 9 MB of
lines, kept, made ``session context`` ~10 ms slower). Otherwise the result is the one
:func:`~.scanner.scan_stream` gives.
"""

from __future__ import annotations

import os
from typing import IO

from tether.builtin_plugins.storage.jsonl.scan.file_lines import FileLines
from tether.builtin_plugins.storage.jsonl.scan.scanner import (
    _NON_BLANK,
    BLOCK_SIZE,
    LineScanner,
    ScannedFile,
    scan_stream,
)

LINES_LEFT_BYTES = 1 << 20  # from this size on, the lines stay in the file


def scan_file(
    handle: IO[bytes], path: str, *, validate_all: bool = False
) -> tuple[ScannedFile, bool]:
    """:func:`~.scanner.scan_stream` of the file at ``path``, open as ``handle`` at its
    start; whether it holds anything but blanks. The table's :attr:`~EntryTable.file` names
    it (each line can be read again)."""
    found = None if validate_all else _scan_whole(handle)
    scanned, content = (
        found if found is not None else scan_stream(handle, validate_all=validate_all)
    )
    stat = os.fstat(handle.fileno())
    table = scanned.table
    table.file = (path, stat.st_dev, stat.st_ino, handle.tell())
    if found is not None:  # the lines: read through this very file
        table.line_source = FileLines(os.dup(handle.fileno()), path)
    return scanned, content


def _scan_whole(handle: IO[bytes]) -> tuple[ScannedFile, bool] | None:
    """The lines left in the file (a file of :data:`LINES_LEFT_BYTES` or more), or ``None``
    (then :func:`~.scanner.scan_stream` keeps them)."""
    try:
        fd = handle.fileno()
        size = os.fstat(fd).st_size
        if handle.tell() != 0 or size < LINES_LEFT_BYTES or not hasattr(os, "pread"):
            return None  # (no ``pread``: Windows reads lines as one stream, keeping them)
    except (AttributeError, OSError, ValueError):
        return None
    scanner = LineScanner(validate_all=False, keep_lines=False)
    start, rest, content = 0, b"", False
    while start < size:
        chunk = os.pread(fd, min(BLOCK_SIZE, size - start), start)
        if not chunk:
            break
        start += len(chunk)
        content = content or _NON_BLANK.search(chunk) is not None
        rest = scanner.feed(chunk, rest)
    scanner.finish(rest)
    if scanner.header is None or scanner.stopped:
        return None  # read again from the start, as one stream
    handle.seek(size)
    return scanner.result(not rest), content


__all__ = ["LINES_LEFT_BYTES", "scan_file"]
