"""The SQLite session database: many sessions in one file (WAL, ``synchronous=FULL``).

Each append is one ``BEGIN IMMEDIATE`` transaction that checks the line count the writer last
saw (the append-time check), inserts the lines and updates the listing row and the full-text
index; committed means durable. The one-writer lease is a lock file beside the database
(``<db>.lease-<id>.lock``, :class:`~tether.core.storage.lease.SessionLease`): released by the
kernel when the process ends, however it ends.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

from tether import SessionChangedError, SessionFileError
from tether.builtin_plugins.storage.index_runs import add_runs, chunks_after, read_runs
from tether.builtin_plugins.storage.rows import (
    changed_message,
    import_session_bytes,
    pick_one,
    session_row,
)
from tether.builtin_plugins.storage.sqlite.errors import (
    disk_cause,
    rollback_quietly,
    write_failure,
)
from tether.builtin_plugins.storage.sqlite.opening import connect, refuse_to_create
from tether.builtin_plugins.storage.sqlite.schema import TABLES
from tether.builtin_plugins.storage.sqlite.uri import database_path, hint, open_mode
from tether.core.storage.database import (
    IndexedSession,
    StoredSession,
    StoreError,
    chunk_rows,
    fts_words,
    header_column,
    last_lines,
    summarize_lines,
)
from tether.core.storage.db_store import DatabaseSessionStore
from tether.core.storage.filesafety import PRIVATE_FILE, make_private_dirs
from tether.core.storage.guard import REOPEN

RANGES_PER_QUERY = 200  # 4 parameters each: within SQLite's oldest limit (999)
ROW_FIELDS = "id, cwd, created, modified, name, parent_session, message_count, first_message"


class SqliteDatabase:
    """One SQLite database of sessions (see the module docstring)."""

    _fsync: bool | Callable[[], bool] = True
    _synchronous_set = False

    def __init__(self, uri: str, *, fsync: bool | Callable[[], bool] = True) -> None:
        self.uri = uri
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

    def __repr__(self) -> str:
        return f"SqliteDatabase({self.uri!r})"

    # ---- one session ----------------------------------------------------------------------

    def session_store(self, session_id: str) -> DatabaseSessionStore:
        return DatabaseSessionStore(self, session_id)

    def read(self, session_id: str) -> StoredSession | None:
        if not self.exists:
            return None
        found = self._snapshot(
            session_id,
            lambda _: self._rows(
                "SELECT raw FROM entries WHERE session_id = ? ORDER BY first_line", (session_id,)
            ),
        )
        if found is None:
            return None
        row, chunks = found
        return StoredSession(
            bytes(row[0]), [bytes(c[0]) for c in chunks], int(row[2]), bool(row[1])
        )

    def read_index(self, session_id: str) -> IndexedSession | None:
        """The header, the runs of chunk indexes and the chunks after them (one snapshot)."""
        if not self.exists:
            return None

        def chunks(row: Any) -> tuple[list[Any], list[Any]]:
            runs, covered = read_runs(self._rows, TABLES, session_id, int(row[2]))
            return runs, chunks_after(self._rows, TABLES, session_id, covered, int(row[2]))

        found = self._snapshot(session_id, chunks)
        if found is None:
            return None
        row, (runs, rows) = found
        return IndexedSession(bytes(row[0]), rows, int(row[2]), bool(row[1]), runs)

    def read_chunk_indexes(self, session_id: str, first: int, last: int) -> list[Any]:
        return chunks_after(self._rows, TABLES, session_id, first - 1, last)

    def _rows(self, sql: str, args: Sequence[Any]) -> list[Any]:
        return self._db.execute(sql, args).fetchall()

    def _snapshot(self, session_id: str, read: Callable[[Any], Any]) -> tuple[Any, Any] | None:
        """The session's header row and what ``read(header row)`` reads, in one snapshot."""
        db = self._db
        db.execute("BEGIN")
        try:
            row = db.execute(
                "SELECT header, trailing_newline, line_count FROM sessions WHERE id = ?",
                (session_id,),
            ).fetchone()
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

    def count(self, session_id: str) -> int | None:
        if not self.exists:
            return None
        row = self._db.execute(
            "SELECT line_count FROM sessions WHERE id = ?", (session_id,)
        ).fetchone()
        return None if row is None else int(row[0])

    def tail(self, session_id: str, n: int) -> list[bytes]:
        if not self.exists:
            return []
        rows = self._db.execute(
            "SELECT line_count, raw FROM entries WHERE session_id = ? ORDER BY first_line DESC",
            (session_id,),
        )
        return last_lines(((int(c), bytes(r)) for c, r in rows), n)

    def append_lines(
        self,
        session_id: str,
        header: tuple[dict[str, Any], bytes] | None,
        lines: Sequence[bytes],
        expected: int | None,
        *,
        trailing_newline: bool = True,
    ) -> int:
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
            row = db.execute(
                "SELECT line_count, first_message FROM sessions WHERE id = ?", (session_id,)
            ).fetchone()
            if expected is None:
                if row is not None:
                    raise SessionChangedError(
                        f"{where}: another writer created this session meanwhile; {REOPEN}"
                    )
                assert header is not None
                self._insert_session(session_id, header)
                base, first = 0, ""
            else:
                if row is None:
                    raise SessionFileError(
                        f"{where}: was removed after the session was read; not writing a "
                        "partial session (the entries are still in memory)"
                    )
                base, first = int(row[0]), str(row[1])
                if base != expected:
                    raise SessionChangedError(changed_message(where, expected, base))
            self._insert_lines(session_id, base, lines, first, trailing_newline)
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            rollback_quietly(db)  # SQLite may have ended the transaction itself (disk full)
            raise write_failure(where, self.path, exc, "this append") from None
        except BaseException:
            rollback_quietly(db)
            raise
        return base + len(lines)

    def _insert_session(self, session_id: str, header: tuple[dict[str, Any], bytes]) -> None:
        record, raw = header
        created = header_column(record, "timestamp") or ""
        cwd = header_column(record, "cwd") or ""
        parent = header_column(record, "parentSession")
        self._db.execute(
            "INSERT INTO sessions (id, cwd, created, modified, name, parent_session, header, "
            "line_count, message_count, first_message, trailing_newline) "
            "VALUES (?, ?, ?, ?, NULL, ?, ?, 0, 0, '', 1)",
            (session_id, cwd, created, created, parent, raw),
        )

    def _insert_lines(
        self, session_id: str, base: int, lines: Sequence[bytes], first: str, trailing: bool
    ) -> None:
        db = self._db
        rows = chunk_rows(lines, base)
        db.executemany(
            "INSERT INTO entries (session_id, first_line, line_count, raw, line_index) "
            "VALUES (?, ?, ?, ?, ?)",
            [(session_id, *row) for row in rows],
        )
        new = [(first, count, len(raw), index) for first, count, raw, index in rows]
        add_runs(self._rows, db.execute, TABLES, session_id, new)
        summary = summarize_lines(lines, base, first)
        db.executemany(
            "INSERT INTO message_text (session_id, seq, text) VALUES (?, ?, ?)",
            [(session_id, seq, text) for seq, text in summary.texts],
        )
        db.execute(
            "UPDATE sessions SET line_count = ?, message_count = message_count + ?, "
            "first_message = ?, name = CASE WHEN ? THEN ? ELSE name END, "
            "modified = COALESCE(?, modified), trailing_newline = ? WHERE id = ?",
            (
                base + len(lines),
                summary.messages,
                summary.first_message,
                summary.name is not None,
                summary.name or None,
                summary.modified,
                1 if trailing else 0,
                session_id,
            ),
        )

    # ---- many sessions --------------------------------------------------------------------

    def import_session(self, data: bytes, where: str) -> str:
        return import_session_bytes(self, data, where, self.uri)

    def resolve(self, ref: str) -> str:
        rows = self._db.execute(
            "SELECT id FROM sessions WHERE substr(id, 1, ?) = ? ORDER BY id LIMIT 6",
            (len(ref), ref),
        ).fetchall()
        return pick_one(self.uri, ref, [r[0] for r in rows])

    def list_sessions(
        self, *, cwd: str | None = None, search: str | None = None, limit: int | None = None
    ) -> list[Any]:
        if not self.exists:  # a listing of nothing; `tether sessions` says "no such database"
            return []
        where, args = [], []
        if cwd is not None:
            where.append("cwd = ?")
            args.append(cwd)
        if search is not None:
            words = fts_words(search)
            if not words:
                return []
            where.append("id IN (SELECT session_id FROM message_text WHERE message_text MATCH ?)")
            args.append(" ".join('"' + w.replace('"', "") + '"' for w in words))
        sql = f"SELECT {ROW_FIELDS} FROM sessions"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY modified DESC, id"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        return [session_row(self.uri, row) for row in self._db.execute(sql, args).fetchall()]

    def lease(self, session_id: str, wait: float = 0.0, **options: Any) -> Any:
        from tether import SessionLease

        where = f"{self.uri}#{session_id}"
        if self.mode == "ro":
            raise SessionFileError(f"{where}: cannot save the session: read-only (?mode=ro)")
        if not self.exists:
            refuse_to_create(self.uri, self.path, self.mode, where)  # before the turn
        lock = self.path.with_name(f"{self.path.name}.lease-{session_id}")
        return SessionLease(lock, label=f"{self.uri}#{session_id}").acquire(wait, **options)


__all__ = ["SqliteDatabase", "database_path"]  # database_path: from .uri
