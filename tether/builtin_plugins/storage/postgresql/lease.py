"""The one-writer lease of a session in PostgreSQL: a session-level advisory lock on a
connection of its own, so it holds across machines and ends with the holder's connection.

The holder notes its pid, host, command line and start time in ``tether_leases`` so a second
writer can say who holds it (``… in use by pid 1234 (tether run … on host-a) since 14:02``).
Re-entrant within a process (counted), like the JSONL lease.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from tether import SessionBusyError, SessionChangedError
from tether.builtin_plugins.storage.held import Held, OnWait

POLL_SECONDS = 0.1


@dataclass
class _Lock:
    """The advisory lock of this process on a session: its connection, its first lease."""

    conn: Any
    lease: PgLease


_HELD: Held[_Lock] = Held()  # by (uri, session id)


class PgLease:
    """``acquire(wait)`` / ``release()`` (see the module docstring)."""

    def __init__(
        self, database: Any, session_id: str, key: int, holder: tuple[int, str, float]
    ) -> None:
        self.database = database
        self.session_id = session_id
        self.key = key
        self.holder = holder
        self.slot = (database.uri, session_id)
        self._held = False

    @property
    def held(self) -> bool:
        return self._held

    def acquire(
        self, wait: float = 0.0, *, on_wait: OnWait | None = None, hint: str = ""
    ) -> PgLease:
        from tether.builtin_plugins.storage.postgresql.connection import connect

        if _HELD.join(self.slot):
            self._held = True
            return self
        conn = connect(self.database.uri)
        deadline = time.monotonic() + (wait if wait > 0 else 0.0)
        announced = False
        while True:
            got = conn.execute("SELECT pg_try_advisory_lock(%s)", (self.key,)).fetchone()[0]
            if got:
                break
            who = self._current_holder(conn)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                conn.close()
                tail = f"; {hint}" if hint else ""
                label = f"{self.database.where}#{self.session_id}"
                raise SessionBusyError(f"{label}: in use by {who.describe()}{tail}", who)
            if not announced and on_wait is not None:
                on_wait(who)
            announced = True
            time.sleep(min(POLL_SECONDS, remaining) if not math.isinf(remaining) else POLL_SECONDS)
        self._note_holder(conn)
        _HELD.add(self.slot, _Lock(conn, self))
        self._held = True
        return self

    def release(self) -> None:
        if self._held:
            self._held = False
            self._free(_HELD.leave(self.slot))

    def _free(self, lock: _Lock | None) -> None:
        """Give the lock up (``None``: another lease of this process still holds it)."""
        if lock is None:
            return
        conn = lock.conn
        try:
            conn.execute("DELETE FROM tether_leases WHERE session_id = %s", (self.session_id,))
        except Exception:
            pass  # the server went away: the lock went with the connection
        finally:
            conn.close()

    def __enter__(self) -> PgLease:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()

    def _note_holder(self, conn: Any) -> None:
        from tether.builtin_plugins.storage.jsonl.files.lease import command_line

        pid, host, since = self.holder
        conn.execute(
            "INSERT INTO tether_leases (session_id, pid, host, command, since) "
            "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (session_id) DO UPDATE SET "
            "pid = EXCLUDED.pid, host = EXCLUDED.host, command = EXCLUDED.command, "
            "since = EXCLUDED.since",
            (self.session_id, pid, host, command_line(), since),
        )

    def _current_holder(self, conn: Any) -> Any:
        from tether.builtin_plugins.storage.jsonl.files.lease import LeaseHolder

        row = conn.execute(
            "SELECT pid, host, command, since FROM tether_leases WHERE session_id = %s",
            (self.session_id,),
        ).fetchone()
        if row is None:
            return LeaseHolder()
        pid, host, command, since = row
        return LeaseHolder(pid, f"{command} on {host}" if host else str(command or ""), since)


def revive(database: Any, session_id: str) -> None:
    """Make sure the lease on ``session_id`` this process holds (if it holds one) still holds
    after a broken connection: a restarted server forgot it with the connection, so it is
    taken again on a new one. Another process that took it meanwhile is a
    :class:`SessionChangedError` (nothing written); a server still away a
    :class:`StoreConnectionError` (the append tries again)."""
    import psycopg

    from tether.builtin_plugins.storage.postgresql.connection import connect, first_line
    from tether.storage import REOPEN, StoreConnectionError

    held = _HELD.get((database.uri, session_id))
    if held is None:
        return
    old, lease = held.conn, held.lease
    try:
        old.execute("SELECT 1")
        return  # the same server session: the lock is still ours
    except psycopg.Error:
        old.close()
    label = f"{database.where}#{session_id}"
    conn = connect(database.uri)
    try:
        got = conn.execute("SELECT pg_try_advisory_lock(%s)", (lease.key,)).fetchone()[0]
        if not got:
            who = lease._current_holder(conn)
            raise SessionChangedError(
                f"{label}: {who.describe()} took the session while the connection to the "
                f"database was lost; {REOPEN}"
            )
        lease._note_holder(conn)
    except psycopg.OperationalError as exc:
        conn.close()
        raise StoreConnectionError(
            f"{label}: the connection to the database was lost while taking the lease again "
            f"({first_line(exc)})"
        ) from None
    except BaseException:
        conn.close()
        raise
    held.conn = conn


__all__ = ["PgLease", "revive"]
