"""Many sessions in one database: the :class:`SessionDatabase` contract and what backends share.

A JSONL file holds one session; a database (the ``sqlite`` and ``postgresql`` store plugins)
holds many, and answers ``open_store`` for its URI with a :class:`SessionDatabase`. Each
session in it is reached through :meth:`SessionDatabase.session_store`, a
:class:`~tether.hookspecs.store.SessionStore` like a JSONL file's, so the tree, context,
compaction and fork code is the same on every backend.

Every backend keeps each line's bytes exactly as written (:func:`split_session_bytes`): the
header line, then one row per line in order, and whether the last line ended with a newline.
Exporting joins them back, byte for byte (:func:`join_session_bytes`). Backends implement the
few operations of :class:`LineDriver`; :mod:`.db_store` builds the session store on top.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from tether.builtin_plugins.storage.format.message_text import message_text
from tether.builtin_plugins.storage.format.migration import header_version
from tether.builtin_plugins.storage.format.session_info import session_info_json
from tether.storage import StoreError

BOM = b"\xef\xbb\xbf"
SCHEMES = ("sqlite", "postgresql", "postgres")


CHUNK_BYTES = 8 << 20  # lines are stored in chunks of at most this size (one per append)


@dataclass
class StoredSession:
    """One session as stored: the header line's bytes, the entry lines in chunks (each chunk
    its lines joined by ``\n``), how many lines, and whether the last one ends with ``\n``."""

    header: bytes
    chunks: list[bytes]
    line_count: int
    trailing_newline: bool = True


@dataclass
class IndexedSession:
    """A session's header line, its chunks' indexes (not their bytes) in order, its line count
    and whether the last line ends with ``\n``. A chunk is ``(first line, line count, size in
    bytes, line index or None)`` (plain tuples: a session may have one chunk per append).
    ``runs``: the stored runs of chunk indexes ``(first line, last line, run)``
    (:mod:`.chunk_runs`) from line 1 on; ``chunks`` are then the chunks after them."""

    header: bytes
    chunks: list[tuple[int, int, int, Any]]
    line_count: int
    trailing_newline: bool = True
    runs: list[tuple[int, int, Any]] = field(default_factory=list)


@dataclass
class ParsedSession:
    """A session file's bytes split for storing (:func:`split_session_bytes`)."""

    record: dict[str, Any]
    header: bytes
    lines: list[bytes]
    trailing_newline: bool


def chunked(lines: Sequence[bytes], limit: int | None = None) -> list[tuple[int, bytes]]:
    """``lines`` as ``(offset of the first line, chunk)`` pairs of at most ``limit`` bytes
    (default :data:`CHUNK_BYTES`; a longer line is a chunk of its own)."""
    limit = CHUNK_BYTES if limit is None else limit
    out: list[tuple[int, bytes]] = []
    start, size = 0, 0
    for index, line in enumerate(lines):
        if index > start and size + len(line) + 1 > limit:
            out.append((start, b"\n".join(lines[start:index])))
            start, size = index, 0
        size += len(line) + 1
    if start < len(lines):
        out.append((start, b"\n".join(lines[start:])))
    return out


def chunk_rows(lines: Sequence[bytes], base: int) -> list[tuple[int, int, bytes, bytes | None]]:
    """The rows that store ``lines`` appended after line ``base``: ``(first line, line count,
    chunk, line index)`` (the index:
    :func:`~tether.builtin_plugins.storage.sql.chunk_index.encode_chunk_index`,
    written with its chunk in one transaction)."""
    from tether.builtin_plugins.storage.sql.chunk_index import encode_chunk_index

    out = []
    for offset, chunk in chunked(lines):
        count = chunk.count(b"\n") + 1
        index = encode_chunk_index(lines[offset : offset + count])
        out.append((base + 1 + offset, count, chunk, index))
    return out


def last_lines(chunks: Iterable[tuple[int, bytes]], n: int) -> list[bytes]:
    """The last ``n`` lines of chunks ``(line count, chunk)`` given newest first."""
    lines: list[bytes] = []
    for count, chunk in chunks:
        lines[:0] = chunk.split(b"\n") if count else []
        if len(lines) >= n:
            break
    return lines[-n:] if n else []


@dataclass
class EntryFacts:
    """What a listing needs from one entry line (``text``: a user/assistant message's text)."""

    kind: str | None = None
    role: str | None = None
    text: str = ""
    name: str | None = None
    timestamp: str | None = None


@dataclass
class SessionRow:
    """One session as a database lists it (pi's ``SessionInfo`` fields, from the database)."""

    id: str
    cwd: str
    created: str
    modified: str
    message_count: int
    first_message: str
    name: str | None = None
    parent_session: str | None = None
    store: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def path(self) -> str:
        """What names the session to the commands (as a file's path does): its id."""
        return self.id

    def to_json(self) -> dict[str, Any]:
        first = self.first_message or "(no messages)"
        return session_info_json(
            {"store": self.store}, self, self.parent_session, firstMessage=first
        )


def split_session_bytes(data: bytes, where: str) -> ParsedSession:
    """A v3 session file's bytes, split into its header and lines. The header is the first non-blank
    line (a BOM and blank lines before it stay in the stored header bytes)."""
    end = 0
    while True:
        newline = data.find(b"\n", end)
        line = data[end : newline if newline >= 0 else len(data)]
        if line.strip() and line.strip() != BOM:
            break
        if newline < 0:
            raise StoreError(f"{where}: empty file (no session header)")
        end = newline + 1
    header_end = newline if newline >= 0 else len(data)
    text = data[end:header_end].strip()
    try:
        header = json.loads(text[len(BOM) :] if text.startswith(BOM) else text)
    except (ValueError, RecursionError):
        header = None
    if not isinstance(header, dict) or header.get("type") != "session":
        raise StoreError(f"{where}: not a tether/pi session header")
    if not isinstance(header.get("id"), str) or not header["id"]:
        raise StoreError(f"{where}: the session header has no id")
    if header_version(header) < 3:  # read as pi reads it: "3" is 3
        found = f"version {json.dumps(header['version'])}" if "version" in header else "no version"
        raise StoreError(
            f"{where}: the session header has {found}; expected version 3 (migrate it first)"
        )
    rest = data[header_end + 1 :] if newline >= 0 else b""
    trailing = newline >= 0 and (not rest or rest.endswith(b"\n"))
    lines = rest.split(b"\n") if rest else []
    if lines and rest.endswith(b"\n"):
        lines.pop()
    return ParsedSession(header, data[:header_end], lines, trailing)


def join_session_bytes(stored: StoredSession) -> bytes:
    """The session file again, byte for byte (the inverse of :func:`split_session_bytes`)."""
    body = b"\n".join([stored.header, *stored.chunks])
    return body + b"\n" if stored.trailing_newline else body


def clean_text(text: str) -> str:
    """Text a database column accepts: no NUL, no lone surrogate (U+FFFD instead)."""
    if text.isascii() and "\x00" not in text:
        return text
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace").replace("\x00", "")


def header_column(record: dict[str, Any], key: str) -> str | None:
    """A header field as a column value (``None`` unless a string)."""
    value = record.get(key)
    return clean_text(value) if isinstance(value, str) else None


def facts_of(record: Any) -> EntryFacts:
    """The listing facts of one entry (a record that is not an entry gives empty facts)."""
    if not isinstance(record, dict):
        return EntryFacts()
    kind = record.get("type")
    stamp = record.get("timestamp")
    facts = EntryFacts(
        str(kind) if kind else None, timestamp=clean_text(stamp) if isinstance(stamp, str) else None
    )
    if kind == "message" and isinstance(record.get("message"), dict):
        message = record["message"]
        facts.role = message.get("role") if isinstance(message.get("role"), str) else None
        if facts.role in ("user", "assistant"):
            facts.text = clean_text(message_text(message))
    elif kind == "session_info":
        name = record.get("name")
        facts.name = clean_text(name.strip()) if isinstance(name, str) and name.strip() else ""
    return facts


def facts_of_line(raw: bytes) -> EntryFacts:
    try:
        return facts_of(json.loads(raw))
    except (ValueError, RecursionError):  # nested too deeply: a line readers skip, as pi
        return EntryFacts()


@dataclass
class LinesSummary:
    """What appending ``lines`` changes in a session's listing row."""

    messages: int = 0
    first_message: str = ""
    name: str | None = None  # None: unchanged; "": cleared
    modified: str | None = None
    texts: list[tuple[int, str]] = field(default_factory=list)  # (line number, message text)


def summarize_lines(lines: Sequence[bytes], start: int, first_message: str) -> LinesSummary:
    """The listing changes of ``lines`` appended after line ``start`` (1-based numbers)."""
    out = LinesSummary(first_message=first_message)
    for number, raw in enumerate(lines, start + 1):
        facts = facts_of_line(raw)
        if facts.kind == "message":
            out.messages += 1
            if facts.text:
                out.texts.append((number, facts.text))
                if facts.role == "user" and not out.first_message:
                    out.first_message = facts.text
        if facts.name is not None:
            out.name = facts.name
        if facts.timestamp and facts.kind != "session":
            out.modified = facts.timestamp
    return out


def fts_words(text: str) -> list[str]:
    """The words of a search (letters, digits and ``_``), for a full-text query."""
    import re

    return re.findall(r"\w+", text)


class LineDriver(Protocol):
    """What a database backend does for one session's lines (:mod:`.db_store` does the rest).

    ``expected`` is how many entry lines the caller last saw (``None``: the session must not
    exist yet); a different count raises
    :class:`~tether.core.base.errors.SessionChangedError` and writes nothing."""

    uri: str

    def read(self, session_id: str) -> StoredSession | None: ...

    def count(self, session_id: str) -> int | None: ...

    def tail(self, session_id: str, n: int) -> list[bytes]: ...

    def append_lines(
        self,
        session_id: str,
        header: tuple[dict[str, Any], bytes] | None,
        lines: Sequence[bytes],
        expected: int | None,
    ) -> int: ...


class IndexedLineDriver(LineDriver, Protocol):
    """A backend that stores each chunk's line index (:mod:`.indexed_load` loads from it)."""

    def read_index(self, session_id: str) -> IndexedSession | None:
        """The header and the chunks' indexes, from one snapshot (``None``: no session)."""

    def read_ranges(self, session_id: str, ranges: Sequence[tuple[int, int, int]]) -> list[bytes]:
        """The bytes of ``(first line of a chunk, offset, length)`` ranges of stored chunks."""

    def read_chunk_indexes(self, session_id: str, first: int, last: int) -> list[Any]:
        """The chunks of lines ``first``…``last`` as :attr:`IndexedSession.chunks` has them
        (what a stored run that does not check out gives way to)."""


class SessionDatabase(LineDriver, Protocol):
    """A store of many sessions (what ``open_store`` returns for a database URI)."""

    def session_store(self, session_id: str) -> Any:
        """The :class:`~tether.hookspecs.store.SessionStore` of one session (it may not
        exist yet: it is created with its first append)."""

    def resolve(self, ref: str) -> str:
        """The id of the session ``ref`` names: its id or a unique prefix (else one clear
        error)."""

    def list_sessions(
        self, *, cwd: str | None = None, search: str | None = None, limit: int | None = None
    ) -> list[SessionRow]:
        """Sessions most recent first: of ``cwd`` (``None``: all), whose messages match
        ``search`` (full-text, every word)."""

    def import_session(self, data: bytes, where: str) -> str:
        """Store a v3 session file's bytes as they are; returns its id."""

    def lease(self, session_id: str, wait: float = 0.0, **options: Any) -> Any:
        """The session's one-writer lease, acquired (``release()`` gives it back)."""

    def close(self) -> None: ...


def is_database_uri(uri: str | None) -> bool:
    """Whether ``uri`` names a database store (``scheme://…`` other than ``file://``)."""
    return bool(uri) and "://" in str(uri) and not str(uri).startswith("file://")


__all__ = [
    "EntryFacts",
    "IndexedLineDriver",
    "IndexedSession",
    "LineDriver",
    "LinesSummary",
    "ParsedSession",
    "SessionDatabase",
    "SessionRow",
    "StoredSession",
    "chunk_rows",
    "chunked",
    "clean_text",
    "header_column",
    "facts_of",
    "facts_of_line",
    "fts_words",
    "is_database_uri",
    "join_session_bytes",
    "last_lines",
    "split_session_bytes",
    "summarize_lines",
]
