"""One writer per session: a lease on a session file, held while a process writes it.

A :class:`SessionLease` is an exclusive ``flock`` on a sidecar ``<session file>.lock`` (never
on the session file itself: the store locks that for each append, and two flocks on different
fds of one file conflict even inside one process). The kernel releases it when the process
dies, however it dies. The holder writes its pid, command line and start time into the lock
file, so a second writer can say who holds it:

    FILE: in use by pid 1234 (tether run --session …) since 14:02:11

Within one process the lease is re-entrant (counted), so a command that takes it and the
:class:`~tether.core.harness.harness.Harness` it builds share one lock. Readers never take it. The
lock file is removed on release; an acquirer re-checks after locking that the path still
names the file it locked (else it retries), so removal cannot let two holders in.

The lock file is never followed: it is opened with ``O_NOFOLLOW``, and anything at its path
that is not a regular file of ours (a symlink, a FIFO, a folder, a file with other hard links)
is refused in one line, never truncated, written or removed.
"""

from __future__ import annotations

import errno
import fcntl
import json
import math
import os
import shlex
import stat
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tether.builtin_plugins.storage.jsonl.files.filesafety import (
    PRIVATE_FILE,
    file_kind,
    make_private_dirs,
    pid_alive,
    real_target,
)
from tether.storage import SessionBusyError, SessionFileError

POLL_SECONDS = 0.05
NOTE_BYTES = 4096  # a holder's note is far smaller: a bigger file is not a lock file of ours
LOCK_FLAGS = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK
MAX_POLL_SECONDS = 0.25
COMMAND_CHARS = 120


@dataclass(frozen=True)
class LeaseHolder:
    """Who holds a lease, as its lock file says (fields may be unknown)."""

    pid: int | None = None
    command: str = ""
    since: float | None = None

    def describe(self) -> str:
        """``pid 1234 (tether run …) since 14:02:11`` (or ``another process``)."""
        who = f"pid {self.pid}" if self.pid else "another process"
        if self.command:
            who += f" ({self.command})"
        if self.since is not None:
            fmt = "%H:%M:%S" if time.time() - self.since < 86400 else "%Y-%m-%d %H:%M:%S"
            who += f" since {time.strftime(fmt, time.localtime(self.since))}"
        return who


def lock_path(path: str | os.PathLike[str]) -> Path:
    """The lease's lock file: ``<session file>.lock`` next to the real file (symlinks resolved)."""
    real = real_target(Path(path))
    return real.with_name(real.name + ".lock")


def command_line(argv: list[str] | None = None) -> str:
    """This process's command line, shortened (``python -m tether …`` shows as ``tether …``)."""
    args = list(sys.argv if argv is None else argv) or ["python"]
    program = Path(args[0])
    name = program.parent.name if program.name == "__main__.py" else program.name
    text = " ".join([name or "python", *(shlex.quote(a) for a in args[1:])])
    text = "".join(c if c.isprintable() else " " for c in text)  # stays one line
    return text if len(text) <= COMMAND_CHARS else text[: COMMAND_CHARS - 1] + "…"


class _Held:
    """One process-wide lock on a lock file, shared by the leases of this process."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.count = 1


_HELD: dict[Path, _Held] = {}
_GUARD = threading.Lock()


class SessionLease:
    """The write lease of one session file (see the module docstring).

    ``with SessionLease(path).acquire(wait=5):`` … — ``wait`` is how long to wait for another
    holder (seconds; ``0`` fails at once, ``math.inf`` waits for ever); ``on_wait`` is called
    once with the holder when waiting starts. Raises :class:`SessionBusyError`.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        command: str | None = None,
        label: str | None = None,
    ) -> None:
        self.path = Path(os.path.abspath(os.fspath(path)))
        self.lock_file = lock_path(self.path)
        self.command = command
        self.label = label or str(self.path)  # how messages name the session
        self._held = False

    @property
    def held(self) -> bool:
        return self._held

    def __repr__(self) -> str:
        return f"SessionLease({str(self.path)!r}, held={self._held})"

    def __enter__(self) -> SessionLease:
        if not self._held:
            self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def acquire(
        self,
        wait: float = 0.0,
        *,
        on_wait: Callable[[LeaseHolder], None] | None = None,
        hint: str = "",
    ) -> SessionLease:
        """Take the lease (no-op if this object holds it); see the class docstring."""
        if self._held:
            return self
        with _GUARD:
            shared = _HELD.get(self.lock_file)
            if shared is not None:
                shared.count += 1
                self._held = True
                return self
        deadline = time.monotonic() + (wait if wait > 0 else 0.0)
        delay, announced = POLL_SECONDS, False
        while True:
            fd = self._try_lock()
            if fd is not None:
                break
            with _GUARD:  # another thread of this process may have taken it meanwhile
                shared = _HELD.get(self.lock_file)
                if shared is not None:
                    shared.count += 1
                    self._held = True
                    return self
            holder = read_holder(self.lock_file)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                tail = f"; {hint}" if hint else ""
                raise SessionBusyError(f"{self.label}: in use by {holder.describe()}{tail}", holder)
            if not announced and on_wait is not None:
                on_wait(holder)
            announced = True
            time.sleep(min(delay, remaining))
            delay = min(delay * 1.5, MAX_POLL_SECONDS)
        self._write_holder(fd)
        with _GUARD:
            _HELD[self.lock_file] = _Held(fd)
        self._held = True
        return self

    def release(self) -> None:
        """Give the lease back (the last holder in this process removes the lock file)."""
        if not self._held:
            return
        self._held = False
        with _GUARD:
            shared = _HELD.get(self.lock_file)
            if shared is None:
                return
            shared.count -= 1
            if shared.count > 0:
                return
            del _HELD[self.lock_file]
        try:
            if _same_file(self.lock_file, shared.fd):
                self.lock_file.unlink()
        except OSError:
            pass  # a lock file left behind is harmless: the next holder reuses it
        finally:
            os.close(shared.fd)

    def _try_lock(self) -> int | None:
        """An fd locked on the file now at :attr:`lock_file`, or ``None`` if someone holds it."""
        try:
            make_private_dirs(self.lock_file.parent)
            fd = os.open(self.lock_file, LOCK_FLAGS, PRIVATE_FILE)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.EISDIR, errno.ENXIO, errno.EWOULDBLOCK):
                raise self._not_ours() from None
            raise SessionFileError(
                f"{self.path}: cannot save the session: cannot create its lock file "
                f"{self.lock_file.name}: {exc.strerror}"
            ) from None
        info = os.fstat(fd)
        if stat.S_ISREG(info.st_mode) and info.st_nlink == 0:
            os.close(fd)  # released and removed meanwhile: open the file now at the path
            return self._try_lock()
        try:
            if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1 or info.st_size > NOTE_BYTES:
                raise self._not_ours(info)
            fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except SessionFileError:
            os.close(fd)
            raise
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return None
            raise SessionFileError(f"{self.path}: cannot lock: {exc.strerror}") from None
        if not _same_file(self.lock_file, fd):
            os.close(fd)  # released and removed meanwhile: lock the file now at the path
            return self._try_lock()
        return fd

    def _not_ours(self, info: os.stat_result | None = None) -> SessionFileError:
        """The one line refusing what stands at the lock file's path (never touched)."""
        if info is None:
            try:
                info = os.lstat(self.lock_file)
            except OSError:
                info = None
        mode = info.st_mode if info is not None else 0
        if info is not None and stat.S_ISREG(mode):
            links = info.st_nlink
            what = f"{links} hard links" if links != 1 else f"{info.st_size} bytes, not a note"
            problem = f"not a lock file of tether's (a file with {what})"
        else:
            problem = f"not a regular file ({file_kind(mode) if mode else 'gone meanwhile'})"
        return SessionFileError(
            f"{self.lock_file}: {problem}; refusing to use it as the lock of {self.label} "
            "(nothing was changed; remove it if it is stale)"
        )

    def _write_holder(self, fd: int) -> None:
        info = {"pid": os.getpid(), "command": self.command or command_line(), "since": time.time()}
        data = json.dumps(info, ensure_ascii=False).encode("utf-8", "replace") + b"\n"
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, data, 0)
        except OSError:
            pass  # the lock holds without the note; others then see "another process"


def _same_file(path: Path, fd: int) -> bool:
    """Whether ``path`` itself (not what a symlink there names) is the file open at ``fd``."""
    try:
        current = os.lstat(path)
    except OSError:
        return False
    opened = os.fstat(fd)
    return stat.S_ISREG(current.st_mode) and (current.st_dev, current.st_ino) == (
        opened.st_dev,
        opened.st_ino,
    )


def read_holder(lock_file: Path, *, attempts: int = 5) -> LeaseHolder:
    """Who holds ``lock_file`` (retried briefly: a new holder may not have written it yet)."""
    holder = LeaseHolder()
    for attempt in range(attempts):
        try:
            raw = _read_note(lock_file)
            info = json.loads(raw.decode("utf-8", "replace"))
        except (OSError, ValueError, RecursionError):
            info = None
        if isinstance(info, dict):
            pid = info.get("pid")
            since = info.get("since")
            holder = LeaseHolder(
                pid if isinstance(pid, int) else None,
                str(info.get("command") or ""),
                float(since) if isinstance(since, (int, float)) and math.isfinite(since) else None,
            )
            if holder.pid is None or pid_alive(holder.pid):
                return holder
        if attempt + 1 < attempts:
            time.sleep(0.02)
    return holder if holder.pid is None or pid_alive(holder.pid) else LeaseHolder()


def _read_note(lock_file: Path) -> bytes:
    """The holder's note: the lock file's bytes, never through a symlink nor from a FIFO."""
    fd = os.open(lock_file, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        return os.pread(fd, NOTE_BYTES, 0)
    finally:
        os.close(fd)


def parse_wait(value: str | None) -> float:
    """``--wait [SECONDS]``: ``None`` → 0 (do not wait); ``forever``/``inf`` → for ever."""
    if value is None:
        return 0.0
    text = value.strip().lower()
    if text in ("", "forever", "inf", "infinity"):
        return math.inf
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds < 0:
        from tether.storage import UsageError

        raise UsageError(f"--wait: expected a number of seconds or 'forever', not {value!r}")
    return seconds


__all__ = [
    "LeaseHolder",
    "SessionBusyError",
    "SessionLease",
    "command_line",
    "lock_path",
    "parse_wait",
    "read_holder",
]
