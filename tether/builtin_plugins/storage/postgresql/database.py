"""The PostgreSQL session database (psycopg 3; the server is the user's).

Each append is one transaction: ``SELECT … FOR UPDATE`` of the session's row (so writers on
any machine queue there), the append-time check of the line count, the lines, the listing row
and the full-text rows; committed means durable (the server's ``synchronous_commit``). The
one-writer lease is a session-level advisory lock held on a connection of its own: the server
releases it when that connection ends — the process died, the machine vanished, the server
restarted. A broken connection is a :class:`StoreConnectionError`: the session store
reconnects and tries again for :attr:`PostgresDatabase.reconnect_seconds` (setting
``session.reconnectSeconds``, default :data:`RECONNECT_SECONDS`), each time first checking what
the failed try committed (:mod:`tether.core.storage.db_store`); the lease is taken again on the
new connection (:func:`.lease.revive`), or the write refused if another writer took it meanwhile.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Sequence
from typing import Any

import psycopg

from tether import SessionChangedError, SessionFileError
from tether.builtin_plugins.storage.index_runs import add_runs, chunks_after, read_runs
from tether.builtin_plugins.storage.postgresql.connection import connect, first_line
from tether.builtin_plugins.storage.postgresql.lease import PgLease, revive
from tether.builtin_plugins.storage.postgresql.schema import TABLES, ensure_schema
from tether.builtin_plugins.storage.rows import (
    changed_message,
    import_session_bytes,
    pick_one,
    session_row,
)
from tether.core.storage.database import (
    IndexedSession,
    StoreConnectionError,
    StoredSession,
    StoreError,
    chunk_rows,
    describe_uri,
    fts_words,
    header_column,
    last_lines,
    summarize_lines,
)
from tether.core.storage.db_store import DatabaseSessionStore
from tether.core.storage.guard import REOPEN

ROW_FIELDS = "id, cwd, created, modified, name, parent_session, message_count, first_message"
RECONNECT_SECONDS = 30.0  # how long an append tries again after the connection broke


def lease_key(session_id: str) -> int:
    """The advisory lock key of a session (64 bits from its id)."""
    import hashlib  # only for writers: not at start-up

    digest = hashlib.blake2b(f"tether:{session_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class PostgresDatabase:
    """One PostgreSQL database of sessions (see the module docstring)."""

    def __init__(self, uri: str, settings: Any = None) -> None:
        self.uri = uri
        self.where = describe_uri(uri)
        self._settings = settings
        self._reconnect_seconds: float | None = None
        self._reconnects = 0  # connections replaced since opening
        self._lease_checked: dict[str, int] = {}  # session id → ``_reconnects`` at the last check
        self._conn = connect(uri)
        try:
            ensure_schema(self._conn, self.where)
        except psycopg.Error as exc:
            raise StoreError(f"{self.where}: cannot set up the schema: {first_line(exc)}") from None

    def __repr__(self) -> str:
        return f"PostgresDatabase({self.where!r})"

    def close(self) -> None:
        self._conn.close()

    @property
    def reconnect_seconds(self) -> float:
        """How long an append tries again after the connection broke (settings read on the
        first use: only when a connection broke)."""
        if self._reconnect_seconds is None:
            session = getattr(self._settings, "session", None) if self._settings else None
            value = getattr(session, "reconnect_seconds", None)
            self._reconnect_seconds = RECONNECT_SECONDS if value is None else float(value)
        return self._reconnect_seconds

    def _live(self) -> Any:
        """The connection, reconnected if it broke (a server restart)."""
        if self._conn.closed or self._conn.broken:
            self._conn.close()
            self._conn = connect(self.uri)
            self._reconnects += 1
        return self._conn

    def _fetch(self, sql: str, args: Sequence[Any], *, binary: bool = False) -> list[Any]:
        """Rows of a read-only query; a connection broken since the last use (a server
        restart) is replaced once — reading twice is harmless."""
        for attempt in (1, 2):
            try:
                with self._live().cursor(binary=binary) as cur:
                    cur.execute(sql, args)  # type: ignore[arg-type]
                    return cur.fetchall()
            except psycopg.OperationalError as exc:
                if not self._conn.broken:
                    raise StoreError(f"{self.where}: {first_line(exc)}") from None
                if attempt == 2:
                    raise StoreConnectionError(f"{self.where}: {first_line(exc)}") from None
        raise AssertionError("unreachable")

    def _lost(self, exc: BaseException, session_id: str, doing: str) -> StoreConnectionError:
        return StoreConnectionError(
            f"{self.where}#{session_id}: the connection to the database was lost while "
            f"{doing} ({first_line(exc)})"
        )

    # ---- one session ----------------------------------------------------------------------

    def session_store(self, session_id: str) -> DatabaseSessionStore:
        return DatabaseSessionStore(self, session_id)

    def read(self, session_id: str) -> StoredSession | None:
        for attempt in (1, 2):
            try:
                return self._read(session_id)
            except psycopg.OperationalError as exc:
                if attempt == 2 or not self._conn.broken:
                    raise self._lost(exc, session_id, "reading the session") from None
        raise AssertionError("unreachable")

    def _read(self, session_id: str) -> StoredSession | None:
        conn = self._live()
        with conn.transaction(), conn.cursor(binary=True) as cur:
            cur.execute(
                "SELECT header, trailing_newline, line_count FROM tether_sessions WHERE id = %s",
                (session_id,),
            )
            row = cur.fetchone()
            if row is None:
                return None
            cur.execute(
                "SELECT raw FROM tether_entries WHERE session_id = %s AND first_line <= %s "
                "ORDER BY first_line",
                (session_id, row[2]),
            )
            chunks = [bytes(r[0]) for r in cur.fetchall()]
        return StoredSession(bytes(row[0]), chunks, int(row[2]), bool(row[1]))

    def _header(self, session_id: str) -> Any:
        """The session's header, whether it ends with a newline, its line count; or ``None``."""
        row = self._fetch(
            "SELECT header, trailing_newline, line_count FROM tether_sessions WHERE id = %s",
            (session_id,),
            binary=True,
        )
        return row[0] if row else None

    def read_index(self, session_id: str) -> IndexedSession | None:
        """The header, the runs of chunk indexes and the chunks after them; lines appended
        since the header row was read are not read (a stored chunk or run never changes)."""
        found = self._header(session_id)
        if found is None:
            return None
        header, trailing, count = found
        runs, covered = read_runs(self._binary, TABLES, session_id, int(count))
        chunks = chunks_after(self._binary, TABLES, session_id, covered, int(count))
        return IndexedSession(bytes(header), chunks, int(count), bool(trailing), runs)

    def read_chunk_indexes(self, session_id: str, first: int, last: int) -> list[Any]:
        return chunks_after(self._binary, TABLES, session_id, first - 1, last)

    def _binary(self, sql: str, args: Sequence[Any]) -> list[Any]:
        return self._fetch(sql, args, binary=True)

    def read_ranges(self, session_id: str, ranges: Sequence[tuple[int, int, int]]) -> list[bytes]:
        if not ranges:
            return []
        firsts, offsets, lengths = (list(column) for column in zip(*ranges, strict=True))
        rows = self._fetch(
            "SELECT substring(e.raw FROM r.o + 1 FOR r.n) FROM unnest(%s::int4[], %s::int4[], "
            "%s::int4[]) WITH ORDINALITY AS r(f, o, n, k) JOIN tether_entries e "
            "ON e.session_id = %s AND e.first_line = r.f ORDER BY r.k",
            (firsts, offsets, lengths, session_id),
            binary=True,
        )
        if len(rows) != len(ranges):
            raise StoreError(f"{self.where}#{session_id}: stored lines are gone")
        return [bytes(r[0]) for r in rows]

    def read_streamed(self, session_id: str) -> StoredSession | None:
        """As :meth:`read`, but ``chunks`` arrive while the caller goes through them
        (:mod:`.stream`): loading a session scans what has come while the rest is sent."""
        from tether.builtin_plugins.storage.postgresql.stream import Prefetched, copy_chunks

        found = self._header(session_id)
        if found is None:
            return None
        header, trailing, count = found
        conn = self._conn
        chunks = Prefetched(
            lambda: copy_chunks(conn, session_id, int(count)),
            lambda exc: self._lost(exc, session_id, "reading the session"),
        )
        return StoredSession(bytes(header), chunks, int(count), bool(trailing))  # type: ignore[arg-type]

    def count(self, session_id: str) -> int | None:
        rows = self._fetch("SELECT line_count FROM tether_sessions WHERE id = %s", (session_id,))
        return int(rows[0][0]) if rows else None

    def tail(self, session_id: str, n: int) -> list[bytes]:
        """The last ``n`` lines (only the chunks that hold them are read)."""
        rows = self._fetch(
            "SELECT e.line_count, e.raw FROM tether_entries e JOIN tether_sessions s "
            "ON s.id = e.session_id WHERE e.session_id = %s "
            "AND e.first_line + e.line_count > s.line_count - %s ORDER BY e.first_line DESC",
            (session_id, n),
            binary=True,
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
        where = f"{self.where}#{session_id}"
        try:
            conn = self._live()
            if self._lease_checked.get(session_id, 0) != self._reconnects:
                revive(self, session_id)  # the server restarted: it forgot the lease
                self._lease_checked[session_id] = self._reconnects
            with conn.transaction():
                row = conn.execute(
                    "SELECT line_count, first_message FROM tether_sessions WHERE id = %s "
                    "FOR UPDATE",
                    (session_id,),
                ).fetchone()
                if expected is None:
                    if row is not None:
                        raise SessionChangedError(
                            f"{where}: another writer created this session meanwhile; {REOPEN}"
                        )
                    assert header is not None
                    self._insert_session(conn, session_id, header)
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
                self._insert_lines(conn, session_id, base, lines, first, trailing_newline)
        except psycopg.errors.UniqueViolation:
            raise SessionChangedError(
                f"{where}: another writer created this session meanwhile; {REOPEN}"
            ) from None
        except psycopg.OperationalError as exc:
            if self._conn.broken or self._conn.closed:
                raise self._lost(exc, session_id, "appending") from None
            raise StoreError(
                f"{where}: the database refused the append: {first_line(exc)}"
            ) from None
        return base + len(lines)

    def _insert_session(
        self, conn: Any, session_id: str, header: tuple[dict[str, Any], bytes]
    ) -> None:
        record, raw = header
        created = header_column(record, "timestamp") or ""
        conn.execute(
            "INSERT INTO tether_sessions (id, cwd, created, modified, name, parent_session, "
            "header, line_count, message_count, first_message, trailing_newline) "
            "VALUES (%s, %s, %s, %s, NULL, %s, %s, 0, 0, '', true)",
            (
                session_id,
                header_column(record, "cwd") or "",
                created,
                created,
                header_column(record, "parentSession"),
                raw,
            ),
        )

    def _insert_lines(
        self,
        conn: Any,
        session_id: str,
        base: int,
        lines: Sequence[bytes],
        first: str,
        trailing: bool,
    ) -> None:
        with conn.cursor() as cur:
            rows = chunk_rows(lines, base)
            cur.executemany(
                "INSERT INTO tether_entries (session_id, first_line, line_count, raw, "
                "line_index) VALUES (%s, %s, %s, %s, %s)",
                [(session_id, *row) for row in rows],
            )
            new = [(first, count, len(raw), index) for first, count, raw, index in rows]
            add_runs(
                lambda sql, args: cur.execute(sql, args).fetchall(),
                cur.execute,
                TABLES,
                session_id,
                new,
            )
            summary = summarize_lines(lines, base, first)
            if summary.texts:
                cur.executemany(
                    "INSERT INTO tether_message_text (session_id, seq, text) VALUES (%s, %s, %s)",
                    [(session_id, seq, text) for seq, text in summary.texts],
                )
            cur.execute(
                "UPDATE tether_sessions SET line_count = %s, message_count = message_count + %s, "
                "first_message = %s, name = CASE WHEN %s THEN %s ELSE name END, "
                "modified = COALESCE(%s, modified), trailing_newline = %s WHERE id = %s",
                (
                    base + len(lines),
                    summary.messages,
                    summary.first_message,
                    summary.name is not None,
                    summary.name or None,
                    summary.modified,
                    trailing,
                    session_id,
                ),
            )

    # ---- many sessions --------------------------------------------------------------------

    def import_session(self, data: bytes, where: str) -> str:
        return import_session_bytes(self, data, where, self.where)

    def resolve(self, ref: str) -> str:
        rows = self._fetch(
            "SELECT id FROM tether_sessions WHERE left(id, %s) = %s ORDER BY id LIMIT 6",
            (len(ref), ref),
        )
        return pick_one(self.where, ref, [r[0] for r in rows])

    def list_sessions(
        self, *, cwd: str | None = None, search: str | None = None, limit: int | None = None
    ) -> list[Any]:
        where, args = [], []
        if cwd is not None:
            where.append("cwd = %s")
            args.append(cwd)
        if search is not None:
            words = fts_words(search)
            if not words:
                return []
            where.append(
                "id IN (SELECT session_id FROM tether_message_text "
                "WHERE tsv @@ plainto_tsquery('simple', %s))"
            )
            args.append(" ".join(words))
        sql = f"SELECT {ROW_FIELDS} FROM tether_sessions"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY modified DESC, id"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"
        rows = self._fetch(sql, args)
        return [session_row(self.where, row) for row in rows]

    def lease(self, session_id: str, wait: float = 0.0, **options: Any) -> Any:
        holder = (os.getpid(), socket.gethostname(), time.time())
        return PgLease(self, session_id, lease_key(session_id), holder).acquire(wait, **options)


__all__ = ["PostgresDatabase", "lease_key"]
