"""Low-level file helpers for session storage: durable writes, sidecars, reading by fd."""

from __future__ import annotations

import os
from pathlib import Path

from tether.storage import iso_now

# at most this much per write: with large folios one large write makes the kernel take large
# blocks of new memory for the file's pages, which on a virtual machine cost several times more
# (see tether.builtin_plugins.storage.jsonl.context.output_copy; a clone of an 87 MB session:
# 2.59-2.69 → 2.31-2.46 s)
WRITE_BYTES = 64 << 10


def file_stamp() -> str:
    return iso_now().replace(":", "").replace("-", "").replace(".", "-")


def write_all(fd: int, data: bytes) -> None:
    """All of ``data`` to ``fd``, :data:`WRITE_BYTES` at a time."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view[:WRITE_BYTES])
        view = view[written:]


def fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_file_durably(path: Path, data: bytes, *, fsync: bool = True, mode: int = 0o600) -> None:
    """Create ``path`` (exclusively, private by default) with ``data``, fsynced."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode)
    try:
        write_all(fd, data)
        if fsync:
            os.fsync(fd)
    finally:
        os.close(fd)


def unique_sidecar(path: Path, suffix: str) -> Path:
    """``<path><suffix>``, or with a counter if that exists."""
    candidate = path.with_name(path.name + suffix)
    counter = 1
    while candidate.exists():
        counter += 1
        candidate = path.with_name(f"{path.name}{suffix}.{counter}")
    return candidate


def read_fd(fd: int) -> bytes:
    size = os.fstat(fd).st_size
    chunks = []
    offset = 0
    while offset < size:
        chunk = os.pread(fd, min(1 << 24, size - offset), offset)
        if not chunk:
            break
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def read_first_line(fd: int, limit: int = 1 << 20) -> bytes:
    return read_line_at(fd, 0, limit)[0]


def read_line_at(fd: int, offset: int, limit: int = 1 << 20) -> tuple[bytes, int]:
    """The line starting at ``offset`` (at most about ``limit`` bytes of it, without its
    newline) and the offset of the next line (the file size at the end)."""
    start = offset
    data = b""
    while len(data) < limit:
        chunk = os.pread(fd, 65536, offset)
        if not chunk:
            break
        data += chunk
        offset += len(chunk)
        if b"\n" in chunk:
            break
    line = data.split(b"\n", 1)[0]
    return line, start + len(line) + (1 if len(line) < len(data) else 0)


def last_line_start(fd: int, size: int) -> int:
    """Offset just after the last newline before ``size`` (0 if none)."""
    end = size
    while end > 0:
        start = max(0, end - 65536)
        chunk = os.pread(fd, end - start, start)
        pos = chunk.rfind(b"\n")
        if pos >= 0:
            return start + pos + 1
        end = start
    return 0


__all__ = [
    "file_stamp",
    "fsync_dir",
    "last_line_start",
    "read_fd",
    "read_first_line",
    "read_line_at",
    "unique_sidecar",
    "write_all",
    "write_file_durably",
]
