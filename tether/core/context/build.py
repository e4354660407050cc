"""What the model sees: the active branch projected into messages (pi's ``buildSessionContext``).

Entries and messages are plain JSON dicts in pi's session format. Nothing here copies a message
that it does not change: a context over 100k entries is one linear walk plus one list.

- :func:`build_session_context` — entries + leaf → :class:`SessionContext` (pi's fallbacks).
- :func:`build_context_from_path` — the same from a root-first path (what ``Session`` uses).
- :func:`convert_to_llm` — agent messages → LLM messages (pi's ``convertToLlm``).
- :func:`prepare_for_provider` — the provider-side repair (pi-ai's ``transformMessages``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from tether.core.context.convert import (
    BRANCH_SUMMARY_PREFIX,
    BRANCH_SUMMARY_SUFFIX,
    COMPACTION_SUMMARY_PREFIX,
    COMPACTION_SUMMARY_SUFFIX,
    bash_execution_to_text,
    convert_to_llm,
    prepare_for_provider,
)
from tether.core.storage.format import date_parse_ms

Message = dict[str, Any]
Entry = dict[str, Any]


class _Unset:
    """Marker for "no leaf given": use the last entry (``None`` means "before the root")."""

    _instance: _Unset | None = None

    def __new__(cls) -> _Unset:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Final = _Unset()


@dataclass
class SessionContext:
    """The messages of the active branch plus the thinking level and model in force at its leaf."""

    messages: list[Message] = field(default_factory=list)
    thinking_level: str = "off"
    model: dict[str, Any] | None = None


# ---------------------------------------------------------------------------------------------
# Timestamps and entry → message helpers
# ---------------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------------
# Paths and the context
# ---------------------------------------------------------------------------------------------


def path_to_root(leaf: Entry, get_entry: Callable[[Any], Entry | None]) -> list[Entry]:
    """Entries from the root down to ``leaf`` (inclusive), following ``parentId``.

    Stops at a missing parent (an orphan chain yields only its own part) and at a cycle (where
    pi would loop forever). Linear: appends, then reverses once; cycles are looked for at
    doubling lengths.
    """
    path = [leaf]
    append = path.append
    current = leaf
    check_at = 64
    while True:
        parent_id = current.get("parentId")
        if not parent_id:
            break
        current = get_entry(parent_id)
        if current is None:
            break
        append(current)
        if len(path) >= check_at:
            if _cut_at_cycle(path):
                break
            check_at *= 2
    path.reverse()
    return path


def _cut_at_cycle(path: list[Entry]) -> bool:
    """Truncate ``path`` before its first repeated entry; True if there was one."""
    if len({id(entry) for entry in path}) == len(path):
        return False
    seen: set[int] = set()
    for index, entry in enumerate(path):
        if id(entry) in seen:
            del path[index:]
            return True
        seen.add(id(entry))
    return False  # pragma: no cover - the set sizes said there is a repeat


def build_session_context(
    entries: Sequence[Entry],
    leaf_id: str | None | _Unset = UNSET,
    by_id: Mapping[Any, Entry] | None = None,
) -> SessionContext:
    """pi's ``buildSessionContext``: the context of the branch ending at ``leaf_id``.

    ``leaf_id=None`` → empty context (navigated before the first entry). Unset, empty or unknown
    → the last element of ``entries``. ``by_id`` is the id index (built when not given).
    """
    if leaf_id is None:
        return SessionContext()
    if by_id is None:
        by_id = {entry.get("id"): entry for entry in entries}
    leaf = by_id.get(leaf_id) if isinstance(leaf_id, str) and leaf_id else None
    if leaf is None:
        if not entries:
            return SessionContext()
        leaf = entries[-1]
    return build_context_from_path(path_to_root(leaf, by_id.get))


def build_context_from_path(path: Sequence[Entry]) -> SessionContext:
    """The context of a root-first ``path`` (steps 4–8 of pi's ``buildSessionContext``).

    Thinking level and model come from the whole path; the last compaction on it starts the
    messages with its summary, then the kept entries from ``firstKeptEntryId`` up to it, then
    everything after it. One pass over the path; the kept range is found by walking back.
    """
    thinking_level: Any = "off"
    model_source: Mapping[str, Any] | None = None
    model_is_assistant = False
    compaction: Entry | None = None
    before_compaction = 0
    messages: list[Message] = []
    append = messages.append
    for entry in path:
        kind = entry.get("type")
        if kind == "message":
            message = entry.get("message")
            if isinstance(message, dict):
                append(message)
                if message.get("role") == "assistant":
                    model_source, model_is_assistant = message, True
        elif kind == "compaction":
            compaction, before_compaction = entry, len(messages)
        elif kind == "thinking_level_change":
            thinking_level = entry.get("thinkingLevel")
        elif kind == "model_change":
            model_source, model_is_assistant = entry, False
        elif kind == "custom_message" or kind == "branch_summary":
            converted = context_message(entry)
            if converted is not None:
                append(converted)
    if compaction is not None:
        kept = _kept_before(path, compaction)
        messages = [
            compaction_summary_message(compaction),
            *messages[before_compaction - kept : before_compaction],
            *messages[before_compaction:],
        ]
    return SessionContext(
        messages, thinking_level, model_of_source(model_source, model_is_assistant)
    )


def _produces_message(entry: Entry) -> bool:
    kind = entry.get("type")
    if kind == "message":
        return isinstance(entry.get("message"), dict)
    return kind == "custom_message" or (kind == "branch_summary" and bool(entry.get("summary")))


def _kept_before(path: Sequence[Entry], compaction: Entry) -> int:
    """How many messages the entries from ``firstKeptEntryId`` up to ``compaction`` produce.

    0 when that entry is not on the path before the compaction (pi keeps nothing then).
    """
    index = len(path) - 1
    while path[index] is not compaction:
        index -= 1
    first_kept = compaction.get("firstKeptEntryId")
    produced = 0
    for position in range(index - 1, -1, -1):
        entry = path[position]
        if _produces_message(entry):
            produced += 1
        if entry.get("id") == first_kept:
            return produced
    return 0


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
    "BRANCH_SUMMARY_PREFIX",
    "BRANCH_SUMMARY_SUFFIX",
    "COMPACTION_SUMMARY_PREFIX",
    "COMPACTION_SUMMARY_SUFFIX",
    "UNSET",
    "SessionContext",
    "bash_execution_to_text",
    "branch_summary_message",
    "build_context_from_path",
    "build_session_context",
    "compaction_summary_message",
    "context_message",
    "convert_to_llm",
    "custom_message_from_entry",
    "message_from_entry",
    "model_of_source",
    "path_to_root",
    "prepare_for_provider",
    "timestamp_ms",
]
