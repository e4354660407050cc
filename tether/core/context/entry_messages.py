"""Entries as the messages they stand for in a context (pi's ``appendMessage`` and the
``create*Message`` helpers), and the context's model from its source entry."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tether.core.storage.ids import date_parse_ms

Message = dict[str, Any]


def timestamp_ms(value: Any) -> int | None:
    """``new Date(value).getTime()``: ISO timestamp (or number) → epoch ms; ``None`` if invalid.

    Timestamps without an offset are read as UTC (pi runs with the local zone; the oracle with UTC).
    """
    if isinstance(value, (int, float)):
        return int(value) if value == value and abs(value) <= 8.64e15 else None
    return date_parse_ms(value)


def _put_defined(out: dict[str, Any], entry: Mapping[str, Any], keys: Iterable[str]) -> None:
    """Copy the ``keys`` present in ``entry`` (pi leaves absent fields out of the JSON)."""
    for key in keys:
        if key in entry:
            out[key] = entry[key]


def custom_message_from_entry(entry: Mapping[str, Any]) -> Message:
    """A ``custom_message`` entry as the in-memory ``custom`` message (``createCustomMessage``)."""
    out: Message = {"role": "custom"}
    _put_defined(out, entry, ("customType", "content", "display", "details"))
    out["timestamp"] = timestamp_ms(entry.get("timestamp"))
    return out


def branch_summary_message(entry: Mapping[str, Any]) -> Message:
    """A ``branch_summary`` entry as a ``branchSummary`` message."""
    out: Message = {"role": "branchSummary"}
    _put_defined(out, entry, ("summary", "fromId"))
    out["timestamp"] = timestamp_ms(entry.get("timestamp"))
    return out


def compaction_summary_message(entry: Mapping[str, Any]) -> Message:
    """A ``compaction`` entry as a ``compactionSummary`` message."""
    out: Message = {"role": "compactionSummary"}
    _put_defined(out, entry, ("summary", "tokensBefore"))
    out["timestamp"] = timestamp_ms(entry.get("timestamp"))
    return out


def message_from_entry(entry: Mapping[str, Any]) -> Message | None:
    """pi's compaction ``getMessageFromEntry``: the message an entry stands for, summaries included.

    Unlike the context, an empty branch summary still yields a message and a compaction yields its
    summary message. Used for per-entry token estimates and by the compaction strategy.
    """
    kind = entry.get("type")
    if kind == "message":
        message = entry.get("message")
        return message if isinstance(message, dict) else None
    if kind == "custom_message":
        return custom_message_from_entry(entry)
    if kind == "branch_summary":
        return branch_summary_message(entry)
    if kind == "compaction":
        return compaction_summary_message(entry)
    return None


def context_message(entry: Mapping[str, Any]) -> Message | None:
    """The message an entry contributes to the context (pi's ``appendMessage``), or ``None``:
    :func:`message_from_entry`'s, but neither a compaction nor an empty branch summary."""
    kind = entry.get("type")
    if kind == "compaction" or (kind == "branch_summary" and not entry.get("summary")):
        return None
    return message_from_entry(entry)


def model_of_source(source: Mapping[str, Any] | None, is_assistant: bool) -> dict[str, Any] | None:
    """The context's ``model`` from its source: a ``model_change`` entry or an assistant message."""
    if source is None:
        return None
    model: dict[str, Any] = {}
    if "provider" in source:
        model["provider"] = source["provider"]
    key = "model" if is_assistant else "modelId"
    if key in source:
        model["modelId"] = source[key]
    return model


__all__ = [
    "branch_summary_message",
    "compaction_summary_message",
    "context_message",
    "custom_message_from_entry",
    "message_from_entry",
    "model_of_source",
    "timestamp_ms",
]
