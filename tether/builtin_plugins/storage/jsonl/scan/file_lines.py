"""Lines of a session file read again by where they start, after the file was indexed.

The scanner records where each entry's line starts (``EntryTable.offsets``) and which file it
read (``EntryTable.file``: path, device, inode, size). Two readers use that, reading in ranges
(lines less than :data:`GAP` apart with one ``pread``):

- :class:`FileLines`, the ``line_source`` of a table whose second half was indexed by a forked
  process (:mod:`.jsonl_scan_split`): it keeps the descriptor the file was indexed through, so
  the lines stay readable when the file is renamed, deleted, or replaced by another, and when
  tether sets a torn last line aside; each line read must still hold the type and id the
  scanner saw, else the file was rewritten in place — one :class:`SessionFileError` line.
- :func:`read_lines`, by path, for a forked process that must not touch the loaded lines (it
  refuses a file that is not the one indexed, and its caller checks each entry's id and type).
"""

from __future__ import annotations

import os
from typing import Any

from tether import SessionFileError

GAP = 1 << 20
READ_AHEAD = 256  # rows read with a row asked for alone

FileIdentity = tuple[str, int, int, int]  # path, device, inode, bytes indexed


def read_lines(source: FileIdentity | None, offsets: list[int]) -> list[bytes] | None:
    """The lines starting at ``offsets`` (each without its newline), in that order; ``None``
    when there is no file, it is not the one indexed, or it cannot be read."""
    fd = open_indexed(source)
    if fd is None:
        return None
    try:
        return read_lines_at(fd, offsets, source[3])  # type: ignore[index]
    except OSError:
        return None
    finally:
        os.close(fd)


def open_indexed(source: FileIdentity | None) -> int | None:
    """A descriptor of the file at ``source``'s path when it is the file indexed (same
    device and inode, not shorter), else ``None``; the caller closes it."""
    if source is None or not hasattr(os, "pread"):  # (Windows: the lines the table kept)
        return None
    path, device, inode, size = source
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        stat = os.fstat(fd)
    except OSError:
        stat = None
    if stat is None or (stat.st_dev, stat.st_ino) != (device, inode) or stat.st_size < size:
        os.close(fd)
        return None
    return fd


def read_lines_at(fd: int, offsets: list[int], size: int) -> list[bytes] | None:
    """:func:`read_lines` through an open descriptor of a file of ``size`` bytes (``None``:
    an offset outside it, or a line that no longer ends with a newline — the file was cut
    short since: a line read again always had one, the last line without it is parsed when
    the file is indexed)."""
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
        last = wanted[end - 1][0]
        if last >= size:
            return None
        data = _read_through_line(fd, first, last, size)
        for offset, i in wanted[at:end]:
            stop = data.find(b"\n", offset - first)
            if stop < 0:
                return None
            lines[i] = data[offset - first : stop]
        at = end
    return lines


def _read_through_line(fd: int, first: int, last: int, size: int) -> bytes:
    """The file's bytes from ``first`` to the end of the line starting at ``last`` (or of
    the file)."""
    want = last - first + (16 << 10)
    while True:
        asked = min(want, size - first)
        data = os.pread(fd, asked, first)
        if len(data) < asked or data.find(b"\n", last - first) >= 0 or asked == size - first:
            return data  # the line's end, the end of the file, or a shorter file
        want *= 2


class FileLines:
    """An entry table's ``line_source`` for a file whose lines were not all kept (see the
    module docstring): owns a descriptor of the file as it was indexed."""

    fork_safe = True  # ``pread`` on an inherited descriptor shares no state with the parent

    def __init__(self, fd: int, path: str) -> None:
        self._fd = fd
        self.path = path

    def __del__(self) -> None:
        try:
            os.close(self._fd)
        except (OSError, AttributeError):
            pass

    def load(self, table: Any, rows: list[int]) -> None:
        missing = table.unloaded(rows)
        if not missing:
            return
        if len(missing) < READ_AHEAD:  # one row at a time (a timestamp, a role): the next ones too
            last = missing[-1]
            missing += table.unloaded(list(range(last + 1, min(len(table), last + READ_AHEAD))))
        offsets = table.offsets
        try:
            size = os.fstat(self._fd).st_size
            found = read_lines_at(self._fd, [offsets[row] for row in missing], size)
        except OSError as exc:
            raise SessionFileError(f"{self.path}: cannot read: {exc.strerror}") from None
        if found is None:
            raise SessionFileError(f"{self.path}: changed since it was read (it is shorter)")
        ids, types = table.ids, table.types
        set_line = table.set_line
        for row, line in zip(missing, found, strict=True):
            entry_id, kind = ids[row], types[row]
            # as the scanner saw it: pi's key order first (one comparison), else anywhere
            if not line.startswith(f'{{"type":"{kind}","id":"{entry_id}"'.encode()):
                self._check(table, row, line)
            set_line(row, line)

    def _check(self, table: Any, row: int, line: bytes) -> None:
        """Raise when ``line`` does not hold the type and id the scanner saw at ``row`` (an id
        after other keys: a custom entry's)."""
        entry_id, kind = table.ids[row], table.types[row]
        if entry_id.isascii() and kind.isascii():
            start, key = f'{{"type":"{kind}",'.encode(), f'"id":"{entry_id}"'.encode()
            if not (line.startswith(start) and key in line):
                where = f"line {table.linenos[row]}"
                raise SessionFileError(f"{self.path}: changed since it was read ({where})")


__all__ = ["GAP", "FileIdentity", "FileLines", "open_indexed", "read_lines", "read_lines_at"]
