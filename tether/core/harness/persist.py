"""Storing a finished message in the session (what the harness does on ``message_end``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tether.core.context.build import timestamp_ms
from tether.core.host.errors import SessionFileError, SessionWriteError
from tether.hookspecs.events import Message

PERSISTED_ROLES = frozenset({"user", "assistant", "toolResult", "bashExecution"})


def persist_message(session: Any, message: Message, warn: Callable[[str], None]) -> None:
    """Append a finished message to ``session`` (custom → ``custom_message`` entry).

    A storage failure raises :class:`SessionWriteError` (the run stops; the harness's
    caller gets it from its prompt with the unsaved message)."""
    try:
        _append(session, message, warn)
    except SessionWriteError:
        raise
    except (SessionFileError, OSError) as exc:
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        where = session.file or getattr(session.store, "uri", None) or "session"
        raise SessionWriteError(where, detail, [message]) from exc


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


__all__ = ["PERSISTED_ROLES", "persist_message"]
