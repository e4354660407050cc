"""The PostgreSQL session database (psycopg 3; the server is the user's).

Each append is one transaction: ``SELECT … FOR UPDATE`` of the session's row (so writers on
any machine queue there), the append-time check of the line count, the lines, the listing row
and the full-text rows; committed means durable (the server's ``synchronous_commit``). The
one-writer lease is a session-level advisory lock held on a connection of its own: the server
releases it when that connection ends — the process died, the machine vanished, the server
restarted. A broken connection is a :class:`StoreConnectionError`: the session store
reconnects and tries again for :attr:`PostgresDatabase.reconnect_seconds` (setting
``session.reconnectSeconds``, default :data:`RECONNECT_SECONDS`), each time first checking what
the failed try committed (:mod:`tether.builtin_plugins.storage.sql.db_store`); the lease is taken
again on the
new connection (:func:`.lease.revive`), or the write refused if another writer took it meanwhile.
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Sequence
from typing import Any

import psycopg

from tether import SessionChangedError
from tether.builtin_plugins.storage.postgresql.connection import connect, first_line
from tether.builtin_plugins.storage.postgresql.lease import PgLease, revive
from tether.builtin_plugins.storage.postgresql.schema import DIALECT, ensure_schema
from tether.builtin_plugins.storage.sql.backend import SqlDatabase
from tether.builtin_plugins.storage.sql.database import StoredSession
from tether.builtin_plugins.storage.sql.rows import created_message
from tether.storage import StoreConnectionError, StoreError, describe_uri

RECONNECT_SECONDS = 30.0  # how long an append tries again after the connection broke


def lease_key(session_id: str) -> int:
    """The advisory lock key of a session (64 bits from its id)."""
    import hashlib  # only for writers: not at start-up

    digest = hashlib.blake2b(f"tether:{session_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class PostgresDatabase(SqlDatabase):
    """One PostgreSQL database of sessions (see the module docstring)."""

    dialect = DIALECT

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

    def _blobs(self, sql: str, args: Sequence[Any]) -> list[Any]:
        return self._fetch(sql, args, binary=True)

    def _snapshot(self, session_id: str, read: Callable[[Any], Any]) -> tuple[Any, Any] | None:
        """The header row, then ``read(it)``: what ``read`` reads is bounded by the row's
        line count, and a stored chunk or run never changes."""
        row = self._header(session_id)
        return None if row is None else (row, read(row))

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

    def _write(self, session_id: str, write: Callable[[Any], int]) -> int:
        where = f"{self.where}#{session_id}"
        try:
            conn = self._live()
            if self._lease_checked.get(session_id, 0) != self._reconnects:
                revive(self, session_id)  # the server restarted: it forgot the lease
                self._lease_checked[session_id] = self._reconnects
            with conn.transaction(), conn.cursor() as cur:
                return write(cur)
        except psycopg.errors.UniqueViolation:
            raise SessionChangedError(created_message(where)) from None
        except psycopg.OperationalError as exc:
            if self._conn.broken or self._conn.closed:
                raise self._lost(exc, session_id, "appending") from None
            raise StoreError(
                f"{where}: the database refused the append: {first_line(exc)}"
            ) from None

    # ---- many sessions --------------------------------------------------------------------

    def _search(self, words: list[str]) -> tuple[str, str]:
        condition = "tsv @@ plainto_tsquery('simple', ?)"
        return f"id IN (SELECT session_id FROM {{t}} WHERE {condition})", " ".join(words)

    def lease(self, session_id: str, wait: float = 0.0, **options: Any) -> Any:
        holder = (os.getpid(), socket.gethostname(), time.time())
        return PgLease(self, session_id, lease_key(session_id), holder).acquire(wait, **options)


__all__ = ["PostgresDatabase", "lease_key"]
