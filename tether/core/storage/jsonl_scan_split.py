"""Scan a large session file on two cores: a forked child indexes its second half.

Indexing a file (:mod:`.jsonl_scan`) is a few passes over its bytes per block — most of
the time it takes to open a 100k-entry session. :func:`scan_file` cuts a large file at the
first line start after about its middle and forks: the child indexes the second half (the tree
columns, problems, lines it had to parse) and sends that through a pipe; the parent indexes
the first half meanwhile and puts the two together, line numbers and rows in file order. The
lines stay in the file: the table reads them again when they are needed
(:class:`~.file_lines.FileLines` as its ``line_source``), so a large session is opened
without holding its bytes (on a virtual machine, memory touched for the first time is
costly: a 1M-entry file's lines are 880 MB). Otherwise the result is the one
:func:`~.jsonl_scan.scan_stream` gives.

One process does it all for a file under :data:`PARALLEL_SCAN_BYTES`, with ``validate_all``,
where :func:`can_fork` says no (not Linux, one CPU, other threads running), for a handle that is
no file, when the first half holds no header, or when anything in the child goes wrong; from
:data:`LINES_LEFT_BYTES` on, its lines stay in the file too (a 10k-entry session's 9 MB of
lines, kept, made ``session context`` ~10 ms slower: their memory is touched for the first
time).
"""

from __future__ import annotations

import os
import sys
import threading
from typing import IO, Any

from tether.core.storage.file_lines import FileLines
from tether.core.storage.jsonl_index import UNLOADED, Problem
from tether.core.storage.jsonl_scan import (
    _NON_BLANK,
    BLOCK_SIZE,
    LineScanner,
    ScannedFile,
    scan_stream,
)

PARALLEL_SCAN_BYTES = 32 << 20
LINES_LEFT_BYTES = 1 << 20  # from this size on, the lines stay in the file (one process too)
CUT_PERCENT = 57  # the child also sends its half back: it gets less (the parent waited at 53 %)


def scan_file(
    handle: IO[bytes], path: str, *, validate_all: bool = False
) -> tuple[ScannedFile, bool]:
    """:func:`~.jsonl_scan.scan_stream` of the file at ``path``, open as ``handle`` at its
    start, on two processes when it is large. The table's :attr:`~EntryTable.file` names it
    (each line can be read again)."""
    found = None if validate_all else _scan_halves(handle) or _scan_whole(handle)
    scanned, content = (
        found if found is not None else scan_stream(handle, validate_all=validate_all)
    )
    stat = os.fstat(handle.fileno())
    table = scanned.table
    table.file = (path, stat.st_dev, stat.st_ino, handle.tell())
    if found is not None:  # the lines: read through this very file
        table.line_source = FileLines(os.dup(handle.fileno()), path)
    return scanned, content


def can_fork() -> bool:
    """Whether work may be shared with a forked child here: Linux (a fork without exec is
    unsafe where system frameworks run threads of their own), a second CPU, and no other
    thread in this process (a fork copies only the calling thread; a lock another thread
    held would never be released in the child), and children not reaped by the kernel (with
    ``SIGCHLD`` ignored, as a host program may set it, the child's exit status is gone)."""
    import signal

    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    linux = sys.platform.startswith("linux") and hasattr(os, "fork")
    if not (linux and cpus > 1 and threading.active_count() == 1):
        return False
    return signal.getsignal(signal.SIGCHLD) != signal.SIG_IGN


def _scan_halves(handle: IO[bytes]) -> tuple[ScannedFile, bool] | None:
    try:
        fd = handle.fileno()
        size = os.fstat(fd).st_size
        if handle.tell() != 0:
            return None
    except (AttributeError, OSError, ValueError):
        return None
    if size < PARALLEL_SCAN_BYTES or not can_fork():
        return None
    middle = _line_start_after(fd, size * CUT_PERCENT // 100, size)
    if middle is None:
        return None
    import pickle  # noqa: F401 - before the fork: the child uses it at once

    parent = os.getpid()
    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError:  # EAGAIN, ENOMEM: one process
        os.close(read_end)
        os.close(write_end)
        return None
    if pid == 0:  # the child: never returns
        os.close(read_end)
        _child(fd, middle, size, write_end, parent)
    os.close(write_end)
    try:
        own = LineScanner(validate_all=False, keep_lines=False)
        scanner, content, rest = _scan_range(fd, 0, middle, own)
        half = receive_from_child(read_end, pid)
    except BaseException:
        _stop(pid)
        raise
    finally:
        os.close(read_end)
    if half is None or scanner.header is None or scanner.stopped:
        return None  # one process, from the start
    if rest:
        return None  # the first half did not end a line: the file changed
    _merge(scanner, half)
    handle.seek(size)
    return scanner.result(not half["rest"]), content or half["content"]


def _scan_whole(handle: IO[bytes]) -> tuple[ScannedFile, bool] | None:
    """One process, the lines left in the file (a file of :data:`LINES_LEFT_BYTES` or more),
    or ``None`` (then :func:`~.jsonl_scan.scan_stream` keeps them)."""
    try:
        fd = handle.fileno()
        size = os.fstat(fd).st_size
        if handle.tell() != 0 or size < LINES_LEFT_BYTES or not hasattr(os, "pread"):
            return None  # (no ``pread``: Windows reads lines as one stream, keeping them)
    except (AttributeError, OSError, ValueError):
        return None
    own = LineScanner(validate_all=False, keep_lines=False)
    scanner, content, rest = _scan_range(fd, 0, size, own)
    if scanner.header is None or scanner.stopped:
        return None  # read again from the start, as one stream
    handle.seek(size)
    return scanner.result(not rest), content


def _line_start_after(fd: int, at: int, size: int) -> int | None:
    """Where the first line after byte ``at`` starts (``None``: none does)."""
    while at < size:
        chunk = os.pread(fd, min(1 << 16, size - at), at)
        if not chunk:
            return None
        newline = chunk.find(b"\n")
        if newline >= 0:
            return at + newline + 1 if at + newline + 1 < size else None
        at += len(chunk)
    return None


def _scan_range(
    fd: int, start: int, stop: int, scanner: LineScanner, parent: int = 0
) -> tuple[LineScanner, bool, bytes]:
    """Feed bytes ``start``–``stop`` to ``scanner``; whether any was not blank, and the last
    line's part when it has no newline. ``parent``
    (in the child): stop when that process is gone (nobody waits for the result)."""
    scanner.consumed = start
    rest = b""
    content = False
    while start < stop:
        if parent and os.getppid() != parent:
            raise SystemExit(1)
        chunk = os.pread(fd, min(BLOCK_SIZE, stop - start), start)
        if not chunk:
            break
        start += len(chunk)
        content = content or _NON_BLANK.search(chunk) is not None
        rest = scanner.feed(chunk, rest)
    scanner.finish(rest)
    return scanner, content, rest


def _child(fd: int, middle: int, size: int, write_end: int, parent: int) -> None:
    code = 1
    try:
        scanner = LineScanner(validate_all=False, keep_lines=False)  # they stay in the file
        scanner.header = {}  # the parent's half has it
        scanner, content, rest = _scan_range(fd, middle, size, scanner, parent)
        table = scanner.table
        half = {
            "ids": table.ids,
            "parents": table.parents,
            "types": table.types,
            "linenos": table.linenos,
            "offsets": table.offsets,
            "problems": table.problems,
            "parsed": scanner.parsed,
            "lines": scanner.line_count,
            "rest": bool(rest),
            "content": content,
        }
        send_to_parent(write_end, half)
        code = 0
    except BaseException:  # noqa: BLE001 - any failure: the parent scans it all
        pass
    finally:
        os._exit(code)


def send_to_parent(write_end: int, value: Any) -> None:
    """``value`` pickled whole, then written to the pipe ``write_end`` (closed after). Written
    as it is pickled, it would wait on the pipe until the parent reads, so the pickling would
    start only once the parent is done with its own share."""
    import pickle

    payload = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    with os.fdopen(write_end, "wb") as pipe:
        pipe.write(payload)


def receive_from_child(read_end: int, pid: int) -> Any:
    """What the child ``pid`` sent through the pipe ``read_end`` (:func:`send_to_parent`),
    once it ended; ``None`` when it failed or was cut short. The caller closes the pipe."""
    chunks = []
    while chunk := os.read(read_end, 1 << 20):
        chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    if status != 0 or not chunks:
        return None
    import pickle

    try:
        return pickle.loads(b"".join(chunks))
    except Exception:  # cut short
        return None


def _stop(pid: int) -> None:
    import signal

    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except OSError:
        pass


def _merge(scanner: LineScanner, half: dict[str, Any]) -> None:
    """Append the child's rows (its line numbers counted from the middle) to ``scanner``'s;
    their lines stay in the file (lazy rows)."""
    table = scanner.table
    base = scanner.line_count
    first_row = len(table.ids)
    parsed: dict[int, Any] = half["parsed"]
    table.ids += half["ids"]
    table.parents += half["parents"]
    table.types += half["types"]
    linenos = half["linenos"]
    table.linenos.extend(map(base.__add__, linenos))
    table.offsets.extend(half["offsets"])
    table._raw += [UNLOADED] * len(linenos)
    for row, record in parsed.items():
        table._raw[first_row + row] = None  # parsed by the child: its entry comes with it
        scanner.parsed[first_row + row] = record
    table.problems += [
        Problem(p.line + base if p.line else 0, p.kind, p.message) for p in half["problems"]
    ]
    scanner.line_count = base + half["lines"]


__all__ = ["PARALLEL_SCAN_BYTES", "can_fork", "receive_from_child", "scan_file", "send_to_parent"]
