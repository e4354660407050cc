"""Writing an encoded context out: a list of pieces — bytes, or ranges of temporary files and
buffers — copied to a file in order, file ranges by the kernel (``sendfile``) where it can.

Bytes are written :data:`WRITE_BYTES` at a time (:func:`write_slices`): on Linux with large
folios a single large ``write`` makes the kernel take large blocks of memory for the file's
new pages, and on a virtual machine whose free memory went back to the host those cost far
more than small ones (1.5 GB written to a new file in 1 MB writes: 4.1–4.9 s; in 16–64 KB
writes or by ``sendfile``: 0.6–1.4 s, ``/work``'s machine, measured with a scratch script).

(Two threads copying halves at their offsets gain nothing: a file system such as ext4 takes
the file's lock for each write, so writes to one file are made one at a time.)

:func:`reopened_for_reading` lets a writer copy bytes it wrote already (``llmMessages`` from
``messages``) from the output itself.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import IO, Any

from tether.builtin_plugins.storage.jsonl.files.fileio import WRITE_BYTES

_BATCH = 8 << 20  # read at once where the kernel cannot copy

# a piece: bytes, or (a file or a bytes-like buffer, where the range starts in it, its length)
Piece = Any


def write_pieces(out: IO[bytes], pieces: Iterable[Piece]) -> None:
    """Write ``pieces`` to ``out`` in order (see the module docstring)."""
    text: list[bytes] = []  # bytes in a row, written as one
    for piece in pieces:
        if piece.__class__ is bytes:
            text.append(piece)
            continue
        if text:
            write_slices(out, b"".join(text))
            text = []
        _write_piece(out, piece)
    if text:
        write_slices(out, b"".join(text))


def write_slices(out: IO[bytes], data: Any, start: int = 0, stop: int | None = None) -> None:
    """Bytes ``start``–``stop`` of ``data`` (a bytes-like buffer) to ``out``,
    :data:`WRITE_BYTES` at a time (see the module docstring)."""
    stop = len(data) if stop is None else stop
    if stop - start <= WRITE_BYTES:
        out.write(data if start == 0 and stop == len(data) else memoryview(data)[start:stop])
        return
    view = memoryview(data)
    for at in range(start, stop, WRITE_BYTES):
        out.write(view[at : min(stop, at + WRITE_BYTES)])


def _write_piece(out: IO[bytes], piece: Piece) -> None:
    source, offset, length = piece
    if isinstance(source, (bytes, bytearray)):
        write_slices(out, source, offset, offset + length)
    else:
        _copy_file(source, out, offset, offset + length)


def _copy_file(file: IO[bytes], out: IO[bytes], start: int, stop: int) -> None:
    """Bytes ``start``–``stop`` of ``file`` to ``out`` (by the kernel when it can)."""
    file.flush()
    fd = file.fileno()
    start = _send(fd, out, start, stop)
    while start < stop:
        chunk = os.pread(fd, min(_BATCH, stop - start), start)
        if not chunk:
            raise OSError(f"temporary file of the context ended at byte {start}")
        write_slices(out, chunk)
        start += len(chunk)


def _send(fd: int, out: IO[bytes], start: int, stop: int) -> int:
    """Bytes ``start``–``stop`` of the file ``fd`` to ``out`` by the kernel (``sendfile``) as
    far as it can; returns where it stopped (``stop`` unless ``out`` is no file or the
    kernel refuses: the caller copies the rest)."""
    try:
        out_fd = out.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
        return start
    out.flush()
    while start < stop:
        try:
            sent = os.sendfile(out_fd, fd, start, min(_BATCH << 4, stop - start))
        except OSError:
            return start
        if not sent:
            return start
        start += sent
    return start


def reopened_for_reading(out: IO[bytes]) -> tuple[IO[bytes], int] | None:
    """``out`` (flushed) opened again for reading, with its position: where the next bytes
    written go. ``None`` unless it is a regular file, not opened to append, that this process
    can read (Linux: ``/proc/self/fd``)."""
    import fcntl
    import stat

    try:
        fd = out.fileno()
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode) or fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_APPEND:
            return None
        position = os.lseek(fd, 0, os.SEEK_CUR)
        path = f"/proc/self/fd/{fd}"
        # ext4 writes out a file truncated to zero (the shell's ``>``) when a descriptor of it
        # is first closed ("auto_da_alloc"): closed now, before the bulk is written, that
        # costs nothing; the reading descriptor closed after ``llmMessages`` would make the
        # command wait while the whole output is written out (0.8 s for 1.5 GB)
        os.close(os.open(path, os.O_RDONLY | os.O_CLOEXEC))
        again = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except (AttributeError, OSError, ValueError):  # no descriptor, no /proc, not readable
        return None
    reopened = os.fstat(again)
    if (reopened.st_dev, reopened.st_ino) != (found.st_dev, found.st_ino):
        os.close(again)
        return None
    return os.fdopen(again, "rb", buffering=0), position


__all__ = ["WRITE_BYTES", "Piece", "reopened_for_reading", "write_pieces", "write_slices"]
