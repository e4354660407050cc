"""Where the bash tool keeps full command output: private files in a per-user folder.

Files are ``$TMPDIR/tether-<uid>/bash/<prefix>-<random>.log``, created ``0600`` (whatever the
umask) in folders kept at ``0700``. Making a new file removes the files of that folder that
are older than :data:`MAX_AGE_SECONDS`, so the folder does not grow for ever. A folder that is
a symlink, or that another user owns, is not used: the file then goes into a fresh private
folder made by :func:`tempfile.mkdtemp`.
"""

from __future__ import annotations

import os
import secrets
import stat
import tempfile
import time
from typing import BinaryIO

MAX_AGE_SECONDS = 24 * 3600


def _private_dir(path: str) -> bool:
    """Make ``path`` (if missing) and check it is our own real folder, mode ``0700``."""
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return False
    try:
        info = os.lstat(path)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            return False
        if stat.S_IMODE(info.st_mode) != 0o700:
            os.chmod(path, 0o700)
    except OSError:
        return False
    return True


def log_dir() -> str:
    """The per-user folder for full-output files (made private if needed)."""
    top = os.path.join(tempfile.gettempdir(), f"tether-{os.getuid()}")
    folder = os.path.join(top, "bash")
    if _private_dir(top) and _private_dir(folder):
        return folder
    return tempfile.mkdtemp(prefix=f"tether-{os.getuid()}-bash-")


def remove_old(folder: str, max_age: float = MAX_AGE_SECONDS) -> None:
    """Delete the ``*.log`` files of ``folder`` not modified for ``max_age`` seconds."""
    cutoff = time.time() - max_age
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        try:
            if (
                entry.name.endswith(".log")
                and entry.is_file(follow_symlinks=False)
                and entry.stat(follow_symlinks=False).st_mtime < cutoff
            ):
                os.unlink(entry.path)
        except OSError:
            continue


def new_log_file(prefix: str) -> tuple[str, BinaryIO]:
    """A new private log file: ``(path, binary file open for writing)``."""
    folder = log_dir()
    remove_old(folder)
    path = os.path.join(folder, f"{prefix}-{secrets.token_hex(8)}.log")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, 0o600)
    return path, os.fdopen(fd, "wb")


__all__ = ["MAX_AGE_SECONDS", "log_dir", "new_log_file", "remove_old"]
