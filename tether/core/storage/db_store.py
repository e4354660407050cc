"""One session in a database: a :class:`~tether.core.storage.protocol.SessionStore` over a
:class:`~tether.core.storage.database.LineDriver`.

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

When a connection breaks during an append (:class:`StoreConnectionError`), the outcome is
unknown; the next append looks first: if the database holds exactly the lines of the failed
append after the ones known, they were committed and are not written again.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from tether.core.storage.database import LineDriver, StoreConnectionError, StoredSession
from tether.core.storage.format import dumps_record
from tether.core.storage.jsonl_index import EntryTable
from tether.core.storage.jsonl_scan import scan_stream
from tether.core.storage.migration import header_version
from tether.core.storage.protocol import LoadedSession


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


class DatabaseSessionStore:
    """The session ``session_id`` of a database (see the module docstring)."""

    def __init__(self, driver: LineDriver, session_id: str, database: Any = None) -> None:
        self.driver = driver
        self.session_id = session_id
        self.database = database if database is not None else driver
        self.known: int | None = None  # entry lines as last read/written; None: not read
        self._in_doubt: tuple[int | None, list[bytes]] | None = None

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
            from tether.core.storage.indexed_load import load_indexed

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
        version = header_version(scanned.header) if scanned.header else None
        return LoadedSession(
            scanned.header,
            scanned.table,
            exists=True,
            version_on_disk=None if version is None else float(version),
        )

    def _missing(self) -> LoadedSession:
        self.known = None
        return LoadedSession(None, EntryTable(), exists=False)

    def append(
        self,
        records: Sequence[Mapping[str, Any]],
        *,
        header: Mapping[str, Any],
        header_written: bool = False,
    ) -> None:
        lines = [dumps_record(r).encode("utf-8") for r in records]
        if self._in_doubt is not None:
            lines = self._settle_doubt(lines)
        expected = self.known if header_written or self.known is not None else None
        head = None
        if expected is None:
            head = (dict(header), dumps_record(header).encode("utf-8"))
        elif not lines:
            return
        try:
            self.known = self.driver.append_lines(self.session_id, head, lines, expected)
        except StoreConnectionError:
            self._in_doubt = (expected, lines)
            raise
        self._in_doubt = None

    def _settle_doubt(self, lines: list[bytes]) -> list[bytes]:
        """After a broken connection: drop from ``lines`` what the failed append did commit."""
        assert self._in_doubt is not None
        expected, sent = self._in_doubt
        count = self.driver.count(self.session_id)
        self._in_doubt = None
        before = expected or 0
        if count is None or count != before + len(sent) or lines[: len(sent)] != sent:
            return lines  # not committed (or someone else wrote: the check will say so)
        if self.driver.tail(self.session_id, len(sent)) != sent:
            return lines
        self.known = count
        return lines[len(sent) :]


__all__ = ["DatabaseSessionStore"]
