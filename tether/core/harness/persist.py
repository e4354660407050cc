"""Storing a finished message in the session (what the harness does on ``message_end``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tether.core.base.errors import SessionFileError, SessionWriteError
from tether.core.context.entry_messages import timestamp_ms
from tether.core.storage.errors import StoreConnectionError, describe_uri
from tether.hookspecs.events import Message

PERSISTED_ROLES = frozenset({"user", "assistant", "toolResult", "bashExecution"})
LISTED = 4  # unsaved entries named in the error line; the rest are counted


def persist_message(session: Any, message: Message, warn: Callable[[str], None]) -> None:
    """Append a finished message to ``session`` (custom → ``custom_message`` entry).

    A storage failure raises :class:`SessionWriteError` (the run stops; the harness's
    caller gets it from its prompt with the unsaved message). When a database stayed away
    (the store tried again for ``session.reconnectSeconds``), the line also says which entries
    are stored and which are not."""
    try:
        _append(session, message, warn)
    except SessionWriteError:
        raise
    except (SessionFileError, OSError) as exc:
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        uri = getattr(getattr(session, "store", None), "uri", None)
        where = session.file or (describe_uri(uri) if uri else "session")
        if isinstance(exc, StoreConnectionError):
            detail += f"; {stored_and_not(session)}"
        raise SessionWriteError(where, detail, [message]) from exc


def stored_and_not(session: Any) -> str:
    """``stored: …; not stored: …``: the entries the store holds and those only in memory."""
    table = session.table
    kept = session.persisted_count
    if kept:
        stored = f"stored: {kept} entries, the last {_named(table, kept - 1)}"
    else:
        stored = "stored: nothing" + ("" if session.on_disk else " (not even the header)")
    missing = [_named(table, row) for row in range(kept, len(table))]
    if len(missing) > LISTED:
        missing[LISTED:] = [f"{len(missing) - LISTED} more"]
    return f"{stored}; not stored: {', '.join(missing) or 'nothing'}"


def _named(table: Any, row: int) -> str:
    kind = table.types[row]
    what = (table.role(row) or kind) if kind == "message" else kind
    return f"{table.ids[row]} ({what})"


def _append(session: Any, message: Message, warn: Callable[[str], None]) -> None:
    role = message.get("role")
    if role == "custom":
        entry_id = session.append_custom_message_entry(
            str(message.get("customType") or "plugin"),
            message.get("content", ""),
            bool(message.get("display", True)),
            message.get("details"),
        )
        stamp = timestamp_ms((session.get_entry(entry_id) or {}).get("timestamp"))
        if stamp is not None:  # the context rebuilt from the file has the entry's time
            message["timestamp"] = stamp
    elif role in PERSISTED_ROLES:
        session.append_message(message)
    else:
        warn(f"message with role {role!r} was not stored")


__all__ = ["PERSISTED_ROLES", "persist_message", "stored_and_not"]
