"""A context without its messages: counts, thinking level and model in one lean pass.

``tether session context --quiet`` prints how many messages the model would see, not the
messages. :func:`summarize_context` gives exactly what :func:`~tether.core.context.build.
build_context_from_path` followed by :func:`~tether.core.context.convert.convert_to_llm` would
count, from entries it looks at one at a time and does not keep, and
:func:`message_entry_outline` parses a ``message`` line only as far as that needs.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tether.core.context.build import (
    Entry,
    compaction_summary_message,
    context_message,
    model_of_source,
)
from tether.core.context.convert import kept_by_convert


@dataclass
class ContextSummary:
    """A context without its messages: what ``tether session context --quiet`` prints."""

    thinking_level: Any = "off"
    model: dict[str, Any] | None = None
    message_count: int = 0
    llm_message_count: int = 0


def summarize_context(path: Iterable[Entry]) -> ContextSummary:
    """The thinking level, model and message counts that :func:`build_context_from_path` and
    :func:`convert_to_llm` give for a root-first ``path``, in one pass that keeps no entry or
    message (``path`` may be a generator parsing lines one at a time)."""
    thinking_level: Any = "off"
    model: dict[str, Any] | None = None
    compaction: dict[str, Any] | None = None  # the last one's summary message
    first_kept: Any = None
    compaction_at = before_compaction = 0
    ids: list[Any] = []  # per path entry: its id and whether it produces a message
    produces = bytearray()
    kept_by_llm = bytearray()  # per produced message: kept by convert_to_llm
    for entry in path:
        kind = entry.get("type")
        produced: Any = None
        if kind == "message":
            message = entry.get("message")
            if isinstance(message, dict):
                produced = message
                if message.get("role") == "assistant":
                    model = model_of_source(message, True)
        elif kind == "compaction":
            compaction = compaction_summary_message(entry)
            first_kept = entry.get("firstKeptEntryId")
            compaction_at, before_compaction = len(ids), len(kept_by_llm)
        elif kind == "thinking_level_change":
            thinking_level = entry.get("thinkingLevel")
        elif kind == "model_change":
            model = model_of_source(entry, False)
        elif kind == "custom_message" or kind == "branch_summary":
            produced = context_message(entry)
        ids.append(entry.get("id"))
        produces.append(produced is not None)
        if produced is not None:
            kept_by_llm.append(kept_by_convert(produced))
    if compaction is None:
        return ContextSummary(thinking_level, model, len(kept_by_llm), sum(kept_by_llm))
    kept = 0
    for position in range(compaction_at - 1, -1, -1):  # as _kept_before
        kept += produces[position]
        if ids[position] == first_kept:
            break
    else:
        kept = 0
    start = before_compaction - kept
    messages = 1 + len(kept_by_llm) - start
    llm_messages = kept_by_convert(compaction) + sum(kept_by_llm[start:])
    return ContextSummary(thinking_level, model, messages, llm_messages)


_OUTLINE_VALIDATOR: Any = None
# What summarize_context reads of a message entry (see build_context_from_path, convert_to_llm).
_OUTLINE_MESSAGE_FIELDS = ("role", "provider", "model", "excludeFromContext")


def message_entry_outline(raw: bytes) -> dict[str, Any] | None:
    """A ``message`` line parsed only as far as :func:`summarize_context` looks (``type``,
    ``id`` and the message's role, provider, model, ``excludeFromContext``), about twice as
    fast as a full parse and building next to nothing. ``None`` when the line is not a plain
    valid JSON object; it is then parsed in full. The JSON is still checked completely, by the
    same parser as the full parse; ``NaN``/``Infinity``, which it would accept here, send the
    line to the full parse."""
    global _OUTLINE_VALIDATOR
    if b"NaN" in raw or b"Infinity" in raw:
        return None
    if _OUTLINE_VALIDATOR is None:
        _OUTLINE_VALIDATOR = _outline_validator()
    try:
        return _OUTLINE_VALIDATOR.validate_json(raw)  # type: ignore[no-any-return]
    except ValueError:  # pydantic_core.ValidationError: invalid JSON, not an object, …
        return None


def _outline_validator() -> Any:
    from pydantic_core import SchemaValidator
    from pydantic_core import core_schema as cs

    def fields(*names: str) -> dict[str, Any]:
        return {name: cs.typed_dict_field(cs.any_schema(), required=False) for name in names}

    message = cs.typed_dict_schema(fields(*_OUTLINE_MESSAGE_FIELDS), extra_behavior="ignore")
    entry = fields("type", "id")
    entry["message"] = cs.typed_dict_field(
        cs.union_schema([message, cs.any_schema()], mode="left_to_right"), required=False
    )
    return SchemaValidator(cs.typed_dict_schema(entry, extra_behavior="ignore"))


__all__ = ["ContextSummary", "message_entry_outline", "summarize_context"]
