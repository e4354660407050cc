"""One session in a database: a :class:`~tether.hookspecs.store.SessionStore` over a
:class:`~tether.builtin_plugins.storage.sql.database.LineDriver`.

Loading builds the entry table from the line index stored with each chunk
(:mod:`.indexed_load`, for a driver with ``read_index``): the same table the JSONL scanner
builds from the bytes (chunks without a valid index are scanned), the lines fetched when rows
are needed. ``validate_all`` (and a driver without indexes) hands the stored chunks, as the
session file's bytes, to the JSONL scanner (no joined copy), so every backend reads a session
exactly as a JSONL file is read (and as pi reads it); a driver with ``read_streamed``
(PostgreSQL) hands them over while they still arrive.
Appends are the driver's single transaction, with the append-time check: the store remembers
how many lines it last saw, and the driver refuses to write if the database holds a different
number (a writer that took no lease) — :class:`SessionChangedError`, nothing written.

When a connection breaks during an append (:class:`StoreConnectionError`: a server restart, a
network failure), the outcome is unknown. The store reconnects and tries again, with backoff,
for the driver's ``reconnect_seconds`` (setting ``session.reconnectSeconds``); each try looks
first: the lines the database holds after the caller's base that equal the first lines to
write were committed and are not written again (an unacknowledged commit is never written
twice). After the last try the error is raised; the caller's next append (the same lines and
more) settles the doubt the same way.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from tether.builtin_plugins.storage.format.line_store import LineStore
from tether.builtin_plugins.storage.format.migration import header_version
from tether.builtin_plugins.storage.format.stringify import dumps_record
from tether.builtin_plugins.storage.jsonl.scan.scanner import scan_stream
from tether.builtin_plugins.storage.sql.database import LineDriver, StoredSession
from tether.storage import EntryTable, LoadedSession, StoreConnectionError, describe_uri


class _PieceReader:
    """The session file's bytes as :func:`join_session_bytes` gives them, read piece by piece
    (no 87 MB copy for a 100k-entry session): what the JSONL scanner reads."""

    def __init__(self, stored: StoredSession) -> None:
        self._pieces = self._each(stored)

    @staticmethod
    def _each(stored: StoredSession) -> Iterator[bytes]:
        if stored.header:
            yield stored.header
        for chunk in stored.chunks:
            yield b"\n"
            if chunk:
                yield chunk
        if stored.trailing_newline:
            yield b"\n"

    def read(self, _size: int = -1) -> bytes:
        return next(self._pieces, b"")


class DatabaseSessionStore(LineStore):
    """The session ``session_id`` of a database (see the module docstring)."""

    def __init__(self, driver: LineDriver, session_id: str, database: Any = None) -> None:
        self.driver = driver
        self.session_id = session_id
        self.database = database if database is not None else driver
        self.known: int | None = None  # entry lines as last read/written; None: not read
        self._in_doubt = False  # an append failed with its outcome unknown
        self._base: int | None = None  # the line the caller's unacknowledged lines follow

    @property
    def uri(self) -> str:
        return f"{self.driver.uri}#{self.session_id}"

    @property
    def path(self) -> Path | None:
        return None

    def __repr__(self) -> str:
        return f"DatabaseSessionStore({self.uri!r})"

    def sibling(self, session_id: str) -> DatabaseSessionStore:
        """The store of another (new) session in the same database (fork, clone, new)."""
        return DatabaseSessionStore(self.driver, session_id, self.database)

    def lease(self, wait: float = 0.0, **options: Any) -> Any:
        """This session's one-writer lease, acquired."""
        return self.database.lease(self.session_id, wait, **options)

    def load(self, *, readonly: bool = False, validate_all: bool = False) -> LoadedSession:
        scanned = None
        read_index = None if validate_all else getattr(self.driver, "read_index", None)
        if read_index is not None:  # from the stored line indexes, lines fetched when needed
            from tether.builtin_plugins.storage.sql.indexed_load import load_indexed

            indexed = read_index(self.session_id)
            if indexed is None:
                return self._missing()
            scanned = load_indexed(self.driver, self.session_id, indexed)
            count = indexed.line_count
        if scanned is None:
            read = getattr(self.driver, "read_streamed", self.driver.read)
            stored = read(self.session_id)  # a backend may hand over the chunks as they arrive
            if stored is None:
                return self._missing()
            scanned, _ = scan_stream(_PieceReader(stored), validate_all=validate_all)  # type: ignore[arg-type]
            count = stored.line_count
        self.known = count
        self._in_doubt = False  # what was read is the truth: nothing left to settle
        version = header_version(scanned.header) if scanned.header else None
        return LoadedSession(
            scanned.header,
            scanned.table,
            exists=True,
            version_on_disk=None if version is None else float(version),
        )

    def _missing(self) -> LoadedSession:
        self.known = None
        self._in_doubt = False
        return LoadedSession(None, EntryTable(), exists=False)

    def append_lines(
        self, lines: list[str], header: Mapping[str, Any], header_written: bool
    ) -> None:
        """Append ``lines`` (with the header, for a session not stored yet); a broken
        connection is retried (see the module docstring). ``lines`` after a failed append
        are the failed ones and more: every record not acknowledged yet, in order."""
        encoded = [line.encode("utf-8") for line in lines]
        head = (dict(header), dumps_record(header).encode("utf-8"))
        if not self._in_doubt:
            self._base = self.known
        retry = Reconnecting(float(getattr(self.driver, "reconnect_seconds", 0.0) or 0.0))
        while True:
            try:
                self._append_after_base(encoded, head)
            except StoreConnectionError as exc:
                self._in_doubt = True
                if not retry.pause():
                    raise retry.gave_up(exc, describe_uri(self.uri)) from None
                continue
            self._in_doubt = False
            return

    def _append_after_base(self, lines: list[bytes], head: tuple[dict[str, Any], bytes]) -> None:
        todo = self._settle(lines) if self._in_doubt else lines
        expected = self.known
        if expected is not None and not todo:
            return
        first = head if expected is None else None
        self.known = self.driver.append_lines(self.session_id, first, todo, expected)

    def _settle(self, lines: list[bytes]) -> list[bytes]:
        """After a broken connection: ``lines`` (which follow line ``self._base``) less those
        the database already holds there; ``known`` set to match. Lines that differ (another
        writer) leave ``known`` at the base, so the append-time check refuses to write."""
        count = self.driver.count(self.session_id)
        self.known = self._base
        if count is None:  # not even the header was committed
            return lines
        start = self._base or 0
        extra = count - start
        if extra == 0:  # nothing after the base (for a new session: its header only)
            self.known = count
            return lines
        if 0 < extra <= len(lines) and self.driver.tail(self.session_id, extra) == lines[:extra]:
            self.known = count
            return lines[extra:]
        return lines


class Reconnecting:
    """The tries of one append after broken connections: :meth:`pause` sleeps before the
    next (0.25 s, doubling, at most :data:`MAX_PAUSE`) while ``seconds`` have not passed."""

    MAX_PAUSE = 4.0

    def __init__(self, seconds: float) -> None:
        self.seconds = max(0.0, seconds)
        self.started = time.monotonic()
        self.tries = 1
        self.delay = 0.25

    def pause(self) -> bool:
        left = self.started + self.seconds - time.monotonic()
        if left <= 0:
            return False
        time.sleep(min(self.delay, left))
        self.delay = min(self.delay * 2, self.MAX_PAUSE)
        self.tries += 1
        return True

    def gave_up(self, exc: StoreConnectionError, label: str) -> StoreConnectionError:
        """The last error, saying how long the store tried (``label``: the session)."""
        if not self.seconds:
            return exc
        head, sep, reason = str(exc).partition(": ")
        reason = reason if sep and "://" in head else str(exc)  # the label is said once
        waited = time.monotonic() - self.started
        return StoreConnectionError(
            f"{label}: the database did not answer for {waited:.0f} s ({self.tries} tries; "
            f"setting session.reconnectSeconds): {reason}"
        )


__all__ = ["DatabaseSessionStore", "Reconnecting"]
