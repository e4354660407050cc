"""Entry constructors: dicts in pi's exact key order (as pi writes them), unset optionals omitted.

``parentId: null`` is kept; ``custom`` and ``custom_message`` put ``id``/``parentId``/
``timestamp`` last, as pi does. Re-exported by
:mod:`tether.builtin_plugins.storage.format.stringify`.
"""

from __future__ import annotations

from typing import Any

from tether.core.storage.ids import CURRENT_SESSION_VERSION, iso_now, new_session_id


def _ids(entry_id: str, parent_id: str | None, timestamp: str | None) -> dict[str, Any]:
    return {"id": entry_id, "parentId": parent_id, "timestamp": timestamp or iso_now()}


def _entry(
    kind: str, entry_id: str, parent_id: str | None, timestamp: str | None, /, **fields: Any
) -> dict[str, Any]:
    """type, id, parentId, timestamp, then ``fields`` in the order given."""
    return {"type": kind, **_ids(entry_id, parent_id, timestamp), **fields}


def _set(**fields: Any) -> dict[str, Any]:
    """The optional ``fields`` that are set: ``None`` is pi's ``undefined``, the key omitted."""
    return {key: value for key, value in fields.items() if value is not None}


def make_header(
    cwd: str,
    session_id: str | None = None,
    timestamp: str | None = None,
    parent_session: str | None = None,
) -> dict[str, Any]:
    """A v3 session header: type, version, id, timestamp, cwd[, parentSession]."""
    return {
        "type": "session",
        "version": CURRENT_SESSION_VERSION,
        "id": session_id or new_session_id(),
        "timestamp": timestamp or iso_now(),
        "cwd": cwd,
        **_set(parentSession=parent_session),
    }


def make_message_entry(
    entry_id: str, parent_id: str | None, message: dict[str, Any], timestamp: str | None = None
) -> dict[str, Any]:
    return _entry("message", entry_id, parent_id, timestamp, message=message)


def make_thinking_level_change(
    entry_id: str, parent_id: str | None, thinking_level: str, timestamp: str | None = None
) -> dict[str, Any]:
    return _entry(
        "thinking_level_change", entry_id, parent_id, timestamp, thinkingLevel=thinking_level
    )


def make_model_change(
    entry_id: str, parent_id: str | None, provider: str, model_id: str, timestamp: str | None = None
) -> dict[str, Any]:
    return _entry(
        "model_change", entry_id, parent_id, timestamp, provider=provider, modelId=model_id
    )


def make_compaction(
    entry_id: str,
    parent_id: str | None,
    summary: str,
    first_kept_entry_id: str,
    tokens_before: int,
    details: Any = None,
    from_hook: bool | None = None,
    timestamp: str | None = None,
) -> dict[str, Any]:
    """``details``/``from_hook`` left ``None`` are omitted (pi's ``undefined``)."""
    return _entry(
        "compaction",
        entry_id,
        parent_id,
        timestamp,
        summary=summary,
        firstKeptEntryId=first_kept_entry_id,
        tokensBefore=tokens_before,
        **_set(details=details, fromHook=from_hook),
    )


def make_branch_summary(
    entry_id: str,
    parent_id: str | None,
    from_id: str,
    summary: str,
    details: Any = None,
    from_hook: bool | None = None,
    timestamp: str | None = None,
) -> dict[str, Any]:
    return _entry(
        "branch_summary",
        entry_id,
        parent_id,
        timestamp,
        fromId=from_id,
        summary=summary,
        **_set(details=details, fromHook=from_hook),
    )


def make_custom(
    entry_id: str,
    parent_id: str | None,
    custom_type: str,
    data: Any = None,
    timestamp: str | None = None,
) -> dict[str, Any]:
    """A ``custom`` entry; pi's order is type, customType, data, id, parentId, timestamp."""
    return {
        "type": "custom",
        "customType": custom_type,
        **_set(data=data),
        **_ids(entry_id, parent_id, timestamp),
    }


def make_custom_message(
    entry_id: str,
    parent_id: str | None,
    custom_type: str,
    content: str | list[dict[str, Any]],
    display: bool,
    details: Any = None,
    timestamp: str | None = None,
) -> dict[str, Any]:
    """pi's order: type, customType, content, display, details, id, parentId, timestamp."""
    return {
        "type": "custom_message",
        "customType": custom_type,
        "content": content,
        "display": display,
        **_set(details=details),
        **_ids(entry_id, parent_id, timestamp),
    }


def make_label(
    entry_id: str,
    parent_id: str | None,
    target_id: str,
    label: str | None = None,
    timestamp: str | None = None,
) -> dict[str, Any]:
    """A ``label`` entry; ``label=None`` clears the target's label (the key is omitted)."""
    return _entry("label", entry_id, parent_id, timestamp, targetId=target_id, **_set(label=label))


def make_session_info(
    entry_id: str, parent_id: str | None, name: str, timestamp: str | None = None
) -> dict[str, Any]:
    return _entry("session_info", entry_id, parent_id, timestamp, name=name.strip())


__all__ = [
    "make_branch_summary",
    "make_compaction",
    "make_custom",
    "make_custom_message",
    "make_header",
    "make_label",
    "make_message_entry",
    "make_model_change",
    "make_session_info",
    "make_thinking_level_change",
]
