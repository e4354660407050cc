"""What the database store plugins share besides their SQL: the append-time check's messages,
importing a session's bytes, resolving an id prefix, a listing row (no hooks here)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tether.storage import REOPEN


def changed_message(where: str, expected: int, found: int) -> str:
    """The append-time check's message (the database holds ``found`` lines, not ``expected``)."""
    if found < expected:
        return f"{where}: lost {expected - found} entries since this process read it; {REOPEN}"
    added = found - expected
    return (
        f"{where}: another writer appended {added} entr{'y' if added == 1 else 'ies'} "
        f"since this process read it; {REOPEN}"
    )


def created_message(where: str) -> str:
    """The append-time check's message for a new session another writer made meanwhile."""
    return f"{where}: another writer created this session meanwhile; {REOPEN}"


def import_session_bytes(database: Any, data: bytes, where: str, into: str) -> str:
    """Store a whole session file's ``data`` (read from ``where``) as a new session of
    ``database`` (named ``into`` in messages); its id, or one clear error if it is there."""
    from tether.builtin_plugins.storage.sql.database import split_session_bytes
    from tether.storage import StoreError

    parsed = split_session_bytes(data, where)
    session_id = str(parsed.record["id"])
    if database.count(session_id) is not None:
        raise StoreError(f"{where}: session {session_id} is already in {into}")
    database.append_lines(
        session_id,
        (parsed.record, parsed.header),
        parsed.lines,
        None,
        trailing_newline=parsed.trailing_newline,
    )
    return session_id


def pick_one(uri: str, ref: str, ids: list[str]) -> str:
    """The one id a prefix names, or one clear error."""
    from tether.cli import UsageError

    if ref in ids:
        return ref
    if len(ids) == 1:
        return ids[0]
    if not ids:
        raise UsageError(f"{uri}: no session with an id starting with '{ref}'")
    raise UsageError(f"{uri}: session id prefix '{ref}' is ambiguous: {', '.join(ids[:5])}")


def session_row(uri: str, row: Sequence[Any]) -> Any:
    from tether.builtin_plugins.storage.sql.database import SessionRow

    return SessionRow(
        id=row[0],
        cwd=row[1],
        created=row[2],
        modified=row[3],
        name=row[4],
        parent_session=row[5],
        message_count=int(row[6]),
        first_message=row[7],
        store=uri,
    )


__all__ = ["changed_message", "created_message", "import_session_bytes", "pick_one", "session_row"]
