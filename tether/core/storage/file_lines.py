"""Lines of a session file read again by where they start, after the file was indexed.

The scanner records where each entry's line starts (``EntryTable.offsets``) and which file it
read (``EntryTable.file``: path, device, inode, size). A table whose lines were not all kept in
memory (a large file indexed on two processes, :mod:`.jsonl_scan_split`) and a forked process
that must not touch the loaded lines (:mod:`tether.core.context.parallel`) read them again here,
in ranges: lines less than :data:`GAP` apart are read with one ``pread``. Reading refuses a file
that is not the one indexed (another inode, or shorter than what was read): session files only
grow.
"""

from __future__ import annotations

import os
from typing import Any

from tether.core.host.errors import SessionFileError

GAP = 1 << 20
READ_AHEAD = 256  # rows read with a row asked for alone

FileIdentity = tuple[str, int, int, int]  # path, device, inode, bytes indexed


def read_lines(source: FileIdentity | None, offsets: list[int]) -> list[bytes] | None:
    """The lines starting at ``offsets`` (each without its newline), in that order; ``None``
    when there is no file, it is not the one indexed, or it cannot be read."""
    if source is None:
        return None
    path, device, inode, size = source
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        stat = os.fstat(fd)
        if (stat.st_dev, stat.st_ino) != (device, inode) or stat.st_size < size:
            return None
        wanted = sorted((offset, i) for i, offset in enumerate(offsets))
        lines: list[bytes] = [b""] * len(offsets)
        at = 0
        while at < len(wanted):
            first = wanted[at][0]
            if first < 0 or first >= size:
                return None  # a row that never came from this file
            end = at + 1  # a range of lines less than GAP apart, read at once
            while end < len(wanted) and wanted[end][0] - wanted[end - 1][0] < GAP:
                end += 1
            data = _read_through_line(fd, first, wanted[end - 1][0], size)
            for offset, i in wanted[at:end]:
                stop = data.find(b"\n", offset - first)
                lines[i] = data[offset - first : None if stop < 0 else stop]
            at = end
        return lines
    except OSError:
        return None
    finally:
        os.close(fd)


def _read_through_line(fd: int, first: int, last: int, size: int) -> bytes:
    """The file's bytes from ``first`` to the end of the line starting at ``last`` (or of
    what was indexed)."""
    want = last - first + (64 << 10)
    while True:
        asked = min(want, size - first)
        data = os.pread(fd, asked, first)
        if len(data) < asked or data.find(b"\n", last - first) >= 0 or asked == size - first:
            return data  # the line's end, the end of what was indexed, or a shorter file
        want *= 2


class FileLines:
    """An entry table's ``line_source`` for a file whose lines were not all kept: the lines
    of the rows asked for are read again (``EntryTable.set_line``). A file that is no longer
    the one read: one :class:`SessionFileError` line."""

    def __init__(self, source: FileIdentity) -> None:
        self.source = source

    def load(self, table: Any, rows: list[int]) -> None:
        missing = table.unloaded(rows)
        if not missing:
            return
        if len(missing) < READ_AHEAD:  # one row at a time (a timestamp, a role): the next ones too
            last = missing[-1]
            ahead = range(last + 1, min(len(table), last + READ_AHEAD))
            missing += table.unloaded(list(ahead))
        offsets = table.offsets
        found = read_lines(self.source, [offsets[row] for row in missing])
        if found is None:
            raise SessionFileError(f"{self.source[0]}: changed or gone since it was read")
        for row, line in zip(missing, found, strict=True):
            table.set_line(row, line)


__all__ = ["GAP", "FileIdentity", "FileLines", "read_lines"]
