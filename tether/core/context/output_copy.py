"""Writing an encoded context out: a list of pieces — bytes, or ranges of temporary files and
buffers — copied to a file in order, by the kernel where it can.

:func:`write_pieces` copies the pieces one after the other (``sendfile`` for file ranges).
When the output is a regular file (not opened for appending) and the pieces are large
(:data:`PARALLEL_BYTES`), it knows where each piece lands, so two threads copy the two halves
at their offsets at once (``copy_file_range``/``pwrite``, which run without the interpreter
lock): a 1M-message context is 1.5 GB of output. Either way the file ends up with the same
bytes and its position after them.
"""

from __future__ import annotations

import errno
import os
import stat
import threading
from collections.abc import Iterable
from typing import IO, Any

_BATCH = 8 << 20
PARALLEL_BYTES = 64 << 20
_NO_KERNEL_COPY = {errno.EXDEV, errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.EBADF}

# a piece: bytes, or (a file or a bytes-like buffer, where the range starts in it, its length)
Piece = Any


def write_pieces(out: IO[bytes], pieces: Iterable[Piece]) -> None:
    """Write ``pieces`` to ``out`` in order (see the module docstring)."""
    merged = _merged(pieces)
    fd = _parallel_target(out, merged)
    if fd is None:
        for piece in merged:
            _write_piece(out, piece)
        return
    out.flush()
    start = os.lseek(fd, 0, os.SEEK_CUR)
    placed, end = [], start
    for piece in merged:
        placed.append((end, piece))
        end += _length(piece)
    first, second = _halves(placed, start + (end - start) // 2)
    failures: list[BaseException] = []
    helper = threading.Thread(target=_copy_all, args=(fd, second, failures), daemon=True)
    helper.start()
    try:
        _copy_all(fd, first, failures)
    finally:
        helper.join()
    if failures:
        raise failures[0]
    os.lseek(fd, end, os.SEEK_SET)


def _merged(pieces: Iterable[Piece]) -> list[Piece]:
    """``pieces`` with consecutive bytes joined and empty ones left out."""
    out: list[Piece] = []
    text: list[bytes] = []
    for piece in pieces:
        if piece.__class__ is bytes:
            text.append(piece)
            continue
        if text:
            out.append(b"".join(text))
            text = []
        if piece[2]:
            out.append(piece)
    if text:
        out.append(b"".join(text))
    return out


def _length(piece: Piece) -> int:
    return len(piece) if piece.__class__ is bytes else piece[2]  # type: ignore[no-any-return]


def _parallel_target(out: IO[bytes], pieces: list[Piece]) -> int | None:
    """``out``'s descriptor when the pieces may be copied at offsets on two threads."""
    if sum(map(_length, pieces)) < PARALLEL_BYTES:
        return None
    try:
        import fcntl

        fd = out.fileno()
        mode = os.fstat(fd).st_mode
        appending = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_APPEND
    except (AttributeError, OSError, ValueError, ImportError):  # no file, no fcntl (Windows)
        return None
    if not stat.S_ISREG(mode) or appending:
        return None
    for piece in pieces:
        if piece.__class__ is not bytes and not isinstance(piece[0], (bytes, bytearray)):
            piece[0].flush()
    return fd


def _halves(
    placed: list[tuple[int, Piece]], middle: int
) -> tuple[list[tuple[int, Piece]], list[tuple[int, Piece]]]:
    """The placed pieces before and after ``middle`` (a piece across it is cut in two)."""
    first: list[tuple[int, Piece]] = []
    second: list[tuple[int, Piece]] = []
    for at, piece in placed:
        length = _length(piece)
        if at + length <= middle:
            first.append((at, piece))
        elif at >= middle:
            second.append((at, piece))
        else:
            cut = middle - at
            if piece.__class__ is bytes:
                first.append((at, piece[:cut]))
                second.append((middle, piece[cut:]))
            else:
                source, offset, _ = piece
                first.append((at, (source, offset, cut)))
                second.append((middle, (source, offset + cut, length - cut)))
    return first, second


def _copy_all(fd: int, placed: list[tuple[int, Piece]], failures: list[BaseException]) -> None:
    try:
        for at, piece in placed:
            if piece.__class__ is bytes:
                _pwrite_all(fd, memoryview(piece), at)
            elif isinstance(piece[0], (bytes, bytearray)):
                source, offset, length = piece
                _pwrite_all(fd, memoryview(source)[offset : offset + length], at)
            else:
                source, offset, length = piece
                _copy_range(source.fileno(), fd, offset, length, at)
    except BaseException as exc:  # noqa: BLE001 - re-raised by the caller's thread
        failures.append(exc)


def _pwrite_all(fd: int, data: memoryview, at: int) -> None:
    while data:
        written = os.pwrite(fd, data, at)
        data, at = data[written:], at + written


def _copy_range(source: int, fd: int, offset: int, length: int, at: int) -> None:
    """``length`` bytes of ``source`` from ``offset`` to ``fd`` at ``at``."""
    end = offset + length
    while offset < end:
        try:
            copied = os.copy_file_range(source, fd, end - offset, offset, at)
        except OSError as exc:
            if exc.errno not in _NO_KERNEL_COPY:
                raise
            copied = -1
        if copied < 0:  # the kernel cannot copy between these files: through memory
            chunk = os.pread(source, min(_BATCH, end - offset), offset)
            if not chunk:
                raise OSError(f"temporary file of the context ended at byte {offset}")
            _pwrite_all(fd, memoryview(chunk), at)
            copied = len(chunk)
        elif copied == 0:
            raise OSError(f"temporary file of the context ended at byte {offset}")
        offset, at = offset + copied, at + copied


def _write_piece(out: IO[bytes], piece: Piece) -> None:
    if piece.__class__ is bytes:
        out.write(piece)
        return
    source, offset, length = piece
    if isinstance(source, (bytes, bytearray)):
        view = memoryview(source)
        for at in range(offset, offset + length, _BATCH):
            out.write(view[at : min(offset + length, at + _BATCH)])
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
        out.write(chunk)
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


__all__ = ["PARALLEL_BYTES", "Piece", "write_pieces"]
