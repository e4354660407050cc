"""File-level safety for session storage: regular files only, private modes, bounded lock
waits, symlinks written through, leftovers of crashed rewrites found and cleared.

- :func:`open_regular` never blocks on a FIFO or a device: it opens non-blocking and refuses
  anything but a regular file with one line;
- session files and sidecars are created ``0600`` and folders ``0700`` whatever the umask
  (:data:`PRIVATE_FILE`, :func:`make_private_dirs`);
- :func:`lock_bounded` waits for another process's ``flock`` at most ``TETHER_LOCK_TIMEOUT``
  seconds (default 10), saying once on stderr who holds it;
- :func:`leftover_temps` / :func:`sweep_stale_temps`: ``FILE.tmp-PID`` left by a rewrite that
  crashed before its rename (removed at the next write when that process is gone).
"""

from __future__ import annotations

import fcntl
import os
import stat
import time
from collections.abc import Callable
from pathlib import Path

from tether.storage import SessionFileError

PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700
DEFAULT_LOCK_TIMEOUT = 10.0
TMP_MARK = ".tmp-"


def real_target(path: Path) -> Path:
    """Where writes to ``path`` must land: the file a symlink (chain) points to."""
    return Path(os.path.realpath(path))


_KINDS: tuple[tuple[Callable[[int], bool], str], ...] = (
    (stat.S_ISLNK, "a symlink"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a directory"),
)


def file_kind(mode: int) -> str:
    """``a FIFO``, ``a symlink``, … (what a path that is not a regular file holds)."""
    return next((kind for test, kind in _KINDS if test(mode)), "not a regular file")


def not_regular_error(path: Path, mode: int) -> SessionFileError:
    if stat.S_ISDIR(mode):
        return SessionFileError(f"{path}: is a directory, not a session file")
    return SessionFileError(
        f"{path}: is {file_kind(mode)}, not a regular session file; refusing to use it"
    )


def open_regular(path: Path, flags: int, mode: int = PRIVATE_FILE) -> int:
    """``os.open`` that never hangs on a FIFO/device: refuses anything but a regular file.
    OSErrors are left to the caller (it knows whether it was reading or writing)."""
    fd = os.open(path, flags | os.O_NONBLOCK | os.O_CLOEXEC, mode)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise not_regular_error(path, info.st_mode)
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
    except BaseException:
        os.close(fd)
        raise
    return fd


def make_private_dirs(folder: Path) -> None:
    """Create ``folder`` and its missing parents as ``0700`` (existing folders untouched)."""
    missing: list[Path] = []
    current = folder
    while not os.path.lexists(current) and current != current.parent:
        missing.append(current)
        current = current.parent
    for path in reversed(missing):
        try:
            os.mkdir(path, PRIVATE_DIR)
        except FileExistsError:
            continue
        os.chmod(path, PRIVATE_DIR)  # the umask may have removed bits


def lock_timeout_default() -> float:
    """``TETHER_LOCK_TIMEOUT`` (seconds) or 10."""
    raw = os.environ.get("TETHER_LOCK_TIMEOUT", "").strip()
    try:
        value = float(raw) if raw else DEFAULT_LOCK_TIMEOUT
    except ValueError:
        return DEFAULT_LOCK_TIMEOUT
    return value if value >= 0 and value != float("inf") else DEFAULT_LOCK_TIMEOUT


def lock_holder(fd: int) -> str:
    """``pid N (command)`` of the process holding a ``flock`` on ``fd``'s file, if findable."""
    info = os.fstat(fd)
    key = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return "another process"
    for line in lines:
        fields = line.split()
        if len(fields) < 6 or "->" in fields or fields[1] != "FLOCK" or fields[5] != key:
            continue
        pid = fields[4]
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                raw = handle.read().replace(b"\0", b" ")
                command = " ".join(raw.decode("utf-8", "replace").split())
        except OSError:
            command = ""
        if len(command) > 80:
            command = command[:79] + "…"
        return f"pid {pid} ({command})" if command else f"pid {pid}"
    return "another process"


def lock_bounded(fd: int, path: Path, timeout: float, warn: Callable[[str], None]) -> None:
    """Take an exclusive ``flock`` on ``fd``; if another process holds it, say so once and
    wait at most ``timeout`` seconds, then fail with one line."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return
    except BlockingIOError:
        pass
    holder = lock_holder(fd)
    warn(
        f"waiting for the lock on {path} held by {holder} "
        f"(up to {timeout:g} s; TETHER_LOCK_TIMEOUT sets the wait)"
    )
    deadline = time.monotonic() + timeout
    delay = 0.005
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            left = deadline - time.monotonic()
            if left <= 0:
                raise SessionFileError(
                    f"{path}: still locked by {holder} after {timeout:g} s; nothing written "
                    "(TETHER_LOCK_TIMEOUT sets the wait)"
                ) from None
            time.sleep(min(delay, left))
            delay = min(delay * 2, 0.1)


def pid_alive(pid: int) -> bool:
    """Whether a process ``pid`` exists (owned by anyone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True


def leftover_temps(path: Path) -> list[tuple[Path, int | None, bool]]:
    """``(temp file, pid, pid still alive)`` for every ``<file>.tmp-PID`` next to the file."""
    target = real_target(path)
    prefix = target.name + TMP_MARK
    try:
        names = [n for n in os.listdir(target.parent) if n.startswith(prefix)]
    except OSError:
        return []
    found: list[tuple[Path, int | None, bool]] = []
    for name in sorted(names):
        digits = name[len(prefix) :].split(".", 1)[0]
        pid = int(digits) if digits.isascii() and digits.isdigit() else None
        alive = pid is not None and pid != os.getpid() and pid_alive(pid)
        found.append((target.parent / name, pid, alive))
    return found


def sweep_stale_temps(path: Path, warn: Callable[[str], None]) -> None:
    """Remove the temp files of rewrites whose process is gone (one warning each)."""
    for temp, pid, alive in leftover_temps(path):
        if alive or pid is None:
            continue
        try:
            temp.unlink()
        except OSError:
            continue
        warn(f"{temp}: removed a temp file left by a crashed rewrite (pid {pid})")


def partial_backups(path: Path) -> list[Path]:
    """``<file>.v<N>.bak`` files holding only the start of the (still unmigrated) file: a
    migration was killed while writing its backup."""
    target = real_target(path)
    try:
        names = [n for n in os.listdir(target.parent) if n.startswith(target.name + ".v")]
        data = target.read_bytes() if names else b""
    except OSError:
        return []
    found = []
    for name in sorted(names):
        if ".bak" not in name:
            continue
        try:
            backup = (target.parent / name).read_bytes()
        except OSError:
            continue
        if len(backup) < len(data) and data.startswith(backup):
            found.append(target.parent / name)
    return found


def leftover_notes(path: Path) -> list[str]:
    """One line per leftover of a crash (for ``session show``)."""
    notes = [
        f"{backup.name}: partial backup of an interrupted migration (the session file is "
        "intact; safe to delete)"
        for backup in partial_backups(path)
    ]
    for temp, pid, alive in leftover_temps(path):
        if alive:
            notes.append(f"{temp.name}: temp file of a rewrite in progress (pid {pid})")
        elif pid is None:  # the sweep leaves it: no process number to tell it is ours
            notes.append(
                f"{temp.name}: named like a temp file, without a process number; left alone"
            )
        else:
            notes.append(
                f"{temp.name}: temp file left by a crashed rewrite (the session file is intact; "
                "removed at the next write)"
            )
    return notes


def write_sidecar(path: Path, data: bytes, *, fsync: bool = True, what: str = "file") -> None:
    """Create ``path`` (``0600``, exclusively) with ``data``; a failed write removes what it
    created and is one clear line."""
    from tether.builtin_plugins.storage.jsonl.files.fileio import write_file_durably

    try:
        write_file_durably(path, data, fsync=fsync)
    except FileExistsError:
        raise SessionFileError(f"{path}: already exists; not overwriting it") from None
    except OSError as exc:
        try:
            path.unlink()
        except OSError:
            pass
        raise SessionFileError(f"{path}: cannot write the {what}: {exc.strerror}") from None


__all__ = [
    "DEFAULT_LOCK_TIMEOUT",
    "file_kind",
    "PRIVATE_DIR",
    "PRIVATE_FILE",
    "leftover_notes",
    "leftover_temps",
    "lock_bounded",
    "lock_holder",
    "lock_timeout_default",
    "make_private_dirs",
    "not_regular_error",
    "open_regular",
    "partial_backups",
    "real_target",
    "sweep_stale_temps",
    "write_sidecar",
]
