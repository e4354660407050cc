"""Opening a SQLite session database: connecting to an existing file (never creating it:
the first write does, :meth:`SqliteDatabase._create`) and refusing to create one where the
URI forbids it or most likely means another file."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import quote

from tether import SessionFileError
from tether.builtin_plugins.storage.sqlite.errors import disk_cause
from tether.builtin_plugins.storage.sqlite.schema import VERSION, ensure_schema, schema_version
from tether.builtin_plugins.storage.sqlite.uri import hint, old_reading
from tether.storage import StoreError

MMAP_BYTES = 1 << 30


def refuse_to_create(uri: str, path: Path, mode: str, where: str) -> None:
    """Refuse to make a database that ``?mode`` forbids, in a folder that is not there, or
    where the old reading of three slashes names an existing one (else return)."""
    if mode != "rwc":
        raise SessionFileError(
            f"{where}: cannot save the session: no such database {path} "
            f"(?mode={mode} never creates one)"
        )
    if not path.parent.is_dir():  # a typo must not create folders (nor a database)
        raise StoreError(
            f"{uri}: no folder {path.parent} (create it first; the database file itself is "
            f"made on first use){hint(uri, path, folder=True)}"
        )
    old = old_reading(uri, path)
    if old is not None and old.is_file():
        raise StoreError(
            f"{uri}: not creating {path} while {old} exists: three slashes are relative to the "
            f"current folder (as in SQLAlchemy); for {old} write sqlite:///{old}, for a new "
            f"database write sqlite:///{path}"
        )


def connect(uri: str, path: Path, mode: str) -> sqlite3.Connection:
    """A connection to the existing database at ``path`` (set up or migrated unless read-only)."""
    flag = "ro" if mode == "ro" else "rw"
    try:
        db = sqlite3.connect(
            f"file:{quote(str(path))}?mode={flag}",
            uri=True,
            timeout=30,
            isolation_level=None,
            check_same_thread=False,
        )
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{uri}: cannot open {path}: {exc}") from None
    try:
        _set_up(db, uri, flag)
    except BaseException as exc:
        db.close()
        if not isinstance(exc, sqlite3.DatabaseError):
            raise
        if str(getattr(exc, "sqlite_errorname", "")) == "SQLITE_CANTOPEN":
            raise StoreError(f"{uri}: cannot open {path}: {exc}") from None
        cause = disk_cause(path, exc)
        if cause:
            raise StoreError(f"{uri}: cannot set up {path}: {cause} (SQLite: {exc})") from None
        raise StoreError(f"{uri}: not a usable SQLite database: {exc}") from None
    return db


def _set_up(db: sqlite3.Connection, uri: str, flag: str) -> None:
    """Pragmas, then the schema: made or migrated (``rw``), or checked (``ro``)."""
    if flag == "rw":
        db.execute("PRAGMA page_size=65536")  # a new database only: big rows, few pages
        db.execute("PRAGMA journal_mode=WAL")
    db.execute(f"PRAGMA mmap_size={MMAP_BYTES}")  # reads copy from the page cache once
    if flag == "rw":
        ensure_schema(db, uri)
    elif schema_version(db, uri) != VERSION:
        raise StoreError(
            f"{uri}: not a tether session database of schema version {VERSION}; read-only "
            "(?mode=ro), it cannot be set up or migrated: open it once without ?mode=ro"
        )


__all__ = ["MMAP_BYTES", "connect", "refuse_to_create"]
