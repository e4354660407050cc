"""What a failed SQLite write says: the first error, with its cause (disk full, the file-size
limit), never the rollback's ``cannot rollback - no transaction is active``.

SQLite ends a transaction by itself on some errors (``SQLITE_FULL``, an I/O error); the
rollback that follows must then neither run nor replace the error that ended it.
"""

from __future__ import annotations

import os
import resource
import sqlite3
from pathlib import Path

from tether import SessionFileError

FRAME_MARGIN = 2 * (65536 + 24)  # two WAL frames of the largest page: a write that no longer fits
SIDE_FILES = ("", "-wal", "-journal")


def rollback_quietly(db: sqlite3.Connection) -> None:
    """Roll back the open transaction, if SQLite has not already ended it (errors of the
    rollback itself are dropped: the error being raised is the one to report)."""
    if not db.in_transaction:
        return
    try:
        db.execute("ROLLBACK")
    except sqlite3.Error:
        pass


def _largest_file(path: Path) -> int:
    sizes = []
    for suffix in SIDE_FILES:
        try:
            sizes.append(os.stat(f"{path}{suffix}").st_size)
        except OSError:
            continue
    return max(sizes, default=0)


def disk_cause(path: Path, exc: sqlite3.Error) -> str | None:
    """``disk full (…)`` when the disk or the file-size limit is why a write to the database
    at ``path`` failed; ``None`` when neither is (the error says the rest)."""
    name = str(getattr(exc, "sqlite_errorname", ""))
    if not (name == "SQLITE_FULL" or name.startswith("SQLITE_IOERR")):
        return None
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    if limit != resource.RLIM_INFINITY and _largest_file(path) + FRAME_MARGIN > limit:
        return (
            f"disk full: files may not grow past the file-size limit (ulimit -f) of {limit} bytes"
        )
    try:
        info = os.statvfs(path.parent)
        free = info.f_bavail * info.f_frsize
    except OSError:
        free = None
    if free is not None and free < FRAME_MARGIN:
        return f"disk full: {free} bytes free on the disk of {path.parent}"
    return "disk full" if name == "SQLITE_FULL" else None


def write_failure(where: str, path: Path, exc: sqlite3.Error, doing: str) -> SessionFileError:
    """One line for a write that failed (nothing of it is stored: its transaction is gone)."""
    cause = disk_cause(path, exc)
    detail = f"{cause} (SQLite: {exc})" if cause else f"SQLite: {exc}"
    return SessionFileError(
        f"{where}: cannot save the session: {detail}; {doing} was not stored "
        "(what was saved before is intact)"
    )


__all__ = ["disk_cause", "rollback_quietly", "write_failure"]
