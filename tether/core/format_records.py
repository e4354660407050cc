"""Entry constructors: dicts in pi's exact key order (spec §1.5), unset optionals omitted.

``parentId: null`` is kept; ``custom`` and ``custom_message`` put ``id``/``parentId``/
``timestamp`` last, as pi does. Re-exported by :mod:`tether.core.format`.
"""

from __future__ import annotations

from typing import Any

from tether.core.format import CURRENT_SESSION_VERSION, iso_now, new_session_id


def _base(kind: str, entry_id: str, parent_id: str | None, timestamp: str | None) -> dict[str, Any]:
    return {
        "type": kind,
        "id": entry_id,
        "parentId": parent_id,
        "timestamp": timestamp or iso_now(),
    }


def make_header(
    cwd: str,
    session_id: str | None = None,
    timestamp: str | None = None,
    parent_session: str | None = None,
) -> dict[str, Any]:
    """A v3 session header: type, version, id, timestamp, cwd[, parentSession]."""
    header: dict[str, Any] = {
        "type": "session",
        "version": CURRENT_SESSION_VERSION,
        "id": session_id or new_session_id(),
        "timestamp": timestamp or iso_now(),
        "cwd": cwd,
    }
    if parent_session is not None:
        header["parentSession"] = parent_session
    return header


def make_message_entry(
    entry_id: str, parent_id: str | None, message: dict[str, Any], timestamp: str | None = None
) -> dict[str, Any]:
    entry = _base("message", entry_id, parent_id, timestamp)
    entry["message"] = message
    return entry


def make_thinking_level_change(
    entry_id: str, parent_id: str | None, thinking_level: str, timestamp: str | None = None
) -> dict[str, Any]:
    entry = _base("thinking_level_change", entry_id, parent_id, timestamp)
    entry["thinkingLevel"] = thinking_level
    return entry


def make_model_change(
    entry_id: str, parent_id: str | None, provider: str, model_id: str, timestamp: str | None = None
) -> dict[str, Any]:
    entry = _base("model_change", entry_id, parent_id, timestamp)
    entry["provider"] = provider
    entry["modelId"] = model_id
    return entry


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
    entry = _base("compaction", entry_id, parent_id, timestamp)
    entry["summary"] = summary
    entry["firstKeptEntryId"] = first_kept_entry_id
    entry["tokensBefore"] = tokens_before
    if details is not None:
        entry["details"] = details
    if from_hook is not None:
        entry["fromHook"] = from_hook
    return entry


def make_branch_summary(
    entry_id: str,
    parent_id: str | None,
    from_id: str,
    summary: str,
    details: Any = None,
    from_hook: bool | None = None,
    timestamp: str | None = None,
) -> dict[str, Any]:
    entry = _base("branch_summary", entry_id, parent_id, timestamp)
    entry["fromId"] = from_id
    entry["summary"] = summary
    if details is not None:
        entry["details"] = details
    if from_hook is not None:
        entry["fromHook"] = from_hook
    return entry


def make_custom(
    entry_id: str,
    parent_id: str | None,
    custom_type: str,
    data: Any = None,
    timestamp: str | None = None,
) -> dict[str, Any]:
    """A ``custom`` entry; pi's order is type, customType, data, id, parentId, timestamp."""
    entry: dict[str, Any] = {"type": "custom", "customType": custom_type}
    if data is not None:
        entry["data"] = data
    entry.update(id=entry_id, parentId=parent_id, timestamp=timestamp or iso_now())
    return entry


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
    entry: dict[str, Any] = {
        "type": "custom_message",
        "customType": custom_type,
        "content": content,
        "display": display,
    }
    if details is not None:
        entry["details"] = details
    entry.update(id=entry_id, parentId=parent_id, timestamp=timestamp or iso_now())
    return entry


def make_label(
    entry_id: str,
    parent_id: str | None,
    target_id: str,
    label: str | None = None,
    timestamp: str | None = None,
) -> dict[str, Any]:
    """A ``label`` entry; ``label=None`` clears the target's label (the key is omitted)."""
    entry = _base("label", entry_id, parent_id, timestamp)
    entry["targetId"] = target_id
    if label is not None:
        entry["label"] = label
    return entry


def make_session_info(
    entry_id: str, parent_id: str | None, name: str, timestamp: str | None = None
) -> dict[str, Any]:
    entry = _base("session_info", entry_id, parent_id, timestamp)
    entry["name"] = name.strip()
    return entry


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
