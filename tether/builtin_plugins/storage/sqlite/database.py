"""The SQLite session database: many sessions in one file (WAL, ``synchronous=FULL``).

Each append is one ``BEGIN IMMEDIATE`` transaction that checks the line count the writer last
saw (the append-time check), inserts the lines and updates the listing row and the full-text
index; committed means durable. The one-writer lease is a lock file beside the database
(``<db>.lease-<id>.lock``,
:class:`~tether.builtin_plugins.storage.jsonl.files.lease.SessionLease`): released by the
kernel when the process ends, however it ends.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

from tether import SessionFileError
from tether.builtin_plugins.storage.jsonl.files.filesafety import PRIVATE_FILE, make_private_dirs
from tether.builtin_plugins.storage.sql.backend import SqlDatabase
from tether.builtin_plugins.storage.sqlite.errors import (
    disk_cause,
    rollback_quietly,
    write_failure,
)
from tether.builtin_plugins.storage.sqlite.opening import connect, refuse_to_create
from tether.builtin_plugins.storage.sqlite.schema import DIALECT
from tether.builtin_plugins.storage.sqlite.uri import database_path, hint, open_mode
from tether.storage import StoreError

RANGES_PER_QUERY = 200  # 4 parameters each: within SQLite's oldest limit (999)


class SqliteDatabase(SqlDatabase):
    """One SQLite database of sessions (see the module docstring)."""

    dialect = DIALECT
    _fsync: bool | Callable[[], bool] = True
    _synchronous_set = False

    def __init__(self, uri: str, *, fsync: bool | Callable[[], bool] = True) -> None:
        self.uri = self.where = uri
        self._fsync = fsync  # a callable is asked before the first write (settings, lazily)
        self._synchronous_set = False
        self.path = database_path(uri)
        self.mode = open_mode(uri)
        if self.path.is_dir():
            raise StoreError(f"{uri}: {self.path} is a directory, not a database file")
        self._connection: sqlite3.Connection | None = None
        if self.path.exists():  # a missing database is made by the first write, never a read
            self._connection = connect(self.uri, self.path, self.mode)

    @property
    def fsync(self) -> bool:
        """Whether a commit waits for the disk (``synchronous=FULL``), else ``NORMAL``."""
        if callable(self._fsync):
            value = self._fsync()
            self._fsync = value if isinstance(value, bool) else True
        return self._fsync

    def _set_synchronous(self) -> None:
        """``PRAGMA synchronous`` before the first write (reading needs no settings)."""
        if not self._synchronous_set:
            self._db.execute(f"PRAGMA synchronous={'FULL' if self.fsync else 'NORMAL'}")
            self._synchronous_set = True

    @property
    def exists(self) -> bool:
        """Whether the database file exists (reads of a missing one find nothing)."""
        return self._connection is not None or self.path.exists()

    @property
    def _db(self) -> sqlite3.Connection:
        """The connection (to a database another process made meanwhile, too)."""
        if self._connection is None:
            if not self.path.exists():
                raise self.missing()
            self._connection = connect(self.uri, self.path, self.mode)
        return self._connection

    def missing(self) -> StoreError:
        """``URI: no such database PATH`` (with the reading of three slashes, if it matters)."""
        return StoreError(f"{self.uri}: no such database {self.path}{hint(self.uri, self.path)}")

    def _create(self, where: str) -> None:
        """Make the database for a first write (``?mode=rwc``, the default; never a folder);
        a database that cannot be set up (a full disk) is removed again while still empty."""
        if self.exists:
            return
        refuse_to_create(self.uri, self.path, self.mode, where)
        flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
        try:
            make_private_dirs(self.path.parent)
            os.close(os.open(self.path, flags, PRIVATE_FILE))
        except FileExistsError:
            pass  # another process made it meanwhile
        except OSError as exc:
            raise StoreError(f"{self.uri}: cannot create {self.path}: {exc.strerror}") from None
        try:
            self._connection = connect(self.uri, self.path, self.mode)
        except StoreError:
            with contextlib.suppress(OSError):
                if os.stat(self.path).st_size == 0:
                    os.unlink(self.path)
            raise

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    # ---- one session ----------------------------------------------------------------------

    def _fetch(self, sql: str, args: Sequence[Any]) -> list[Any]:
        return self._db.execute(sql, args).fetchall()

    def _snapshot(self, session_id: str, read: Callable[[Any], Any]) -> tuple[Any, Any] | None:
        db = self._db
        db.execute("BEGIN")
        try:
            row = self._header(session_id)
            if row is None:
                return None
            return row, read(row)
        finally:
            if db.in_transaction:  # an error may have ended it: never hide that error
                db.execute("COMMIT")

    def read_ranges(self, session_id: str, ranges: Sequence[tuple[int, int, int]]) -> list[bytes]:
        out: list[bytes] = []
        for at in range(0, len(ranges), RANGES_PER_QUERY):  # many small chunks: few queries
            batch = ranges[at : at + RANGES_PER_QUERY]
            values = ", ".join(["(?, ?, ?, ?)"] * len(batch))
            args = [x for k, (f, o, n) in enumerate(batch) for x in (k, f, o + 1, n)]
            try:
                rows = self._db.execute(
                    f"WITH r(k, f, o, n) AS (VALUES {values}) SELECT substr(e.raw, r.o, r.n) "
                    "FROM r JOIN entries e ON e.session_id = ? AND e.first_line = r.f "
                    "ORDER BY r.k",
                    [*args, session_id],
                ).fetchall()
            except sqlite3.Error as exc:
                raise StoreError(f"{self.uri}#{session_id}: cannot read its lines: {exc}") from None
            if len(rows) != len(batch):
                raise StoreError(f"{self.uri}#{session_id}: stored lines are gone")
            out += [bytes(r[0]) for r in rows]
        return out

    def _write(self, session_id: str, write: Callable[[Any], int]) -> int:
        where = f"{self.uri}#{session_id}"
        if self.mode == "ro":
            raise SessionFileError(f"{where}: cannot save the session: read-only (?mode=ro)")
        try:
            self._create(where)
        except StoreError as exc:
            detail = str(exc).removeprefix(f"{self.uri}: ")
            raise SessionFileError(f"{where}: cannot save the session: {detail}") from None
        db = self._db
        try:
            self._set_synchronous()
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if disk_cause(self.path, exc):
                raise write_failure(where, self.path, exc, "this append") from None
            raise SessionFileError(f"{where}: cannot append: {exc}") from None
        try:
            count = write(db)
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            rollback_quietly(db)  # SQLite may have ended the transaction itself (disk full)
            raise write_failure(where, self.path, exc, "this append") from None
        except BaseException:
            rollback_quietly(db)
            raise
        return count

    # ---- many sessions --------------------------------------------------------------------

    def _search(self, words: list[str]) -> tuple[str, str]:
        quoted = " ".join('"' + w.replace('"', "") + '"' for w in words)
        return "id IN (SELECT session_id FROM {t} WHERE {t} MATCH ?)", quoted

    def lease(self, session_id: str, wait: float = 0.0, **options: Any) -> Any:
        from tether.builtin_plugins.storage.jsonl.files.lease import SessionLease

        where = f"{self.uri}#{session_id}"
        if self.mode == "ro":
            raise SessionFileError(f"{where}: cannot save the session: read-only (?mode=ro)")
        if not self.exists:
            refuse_to_create(self.uri, self.path, self.mode, where)  # before the turn
        lock = self.path.with_name(f"{self.path.name}.lease-{session_id}")
        return SessionLease(lock, label=f"{self.uri}#{session_id}").acquire(wait, **options)


__all__ = ["SqliteDatabase", "database_path"]  # database_path: from .uri
