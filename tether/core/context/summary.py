"""A context without its messages: counts, thinking level and model in one lean pass.

``tether session context --quiet`` prints how many messages the model would see, not the
messages. :func:`summarize_context` gives exactly what :func:`~tether.core.context.build.
build_context_from_path` followed by :func:`~tether.core.context.convert.convert_to_llm` would
count (the rules of :class:`~tether.core.context.stream.ContextStream`, which
``session context --json`` uses too), from entries it does not keep, and
:func:`message_entry_outline` parses a ``message`` line only as far as that needs.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from tether.core.context.build import Entry
from tether.core.context.convert import kept_by_convert
from tether.core.context.stream import ContextStream, EntryBatch

_BATCH = 4096  # entries read before their messages are counted and dropped


@dataclass
class ContextSummary:
    """A context without its messages: what ``tether session context --quiet`` prints."""

    thinking_level: Any = "off"
    model: dict[str, Any] | None = None
    message_count: int = 0
    llm_message_count: int = 0


def summarize_context(
    entries: Iterable[Entry], setting_only: Sequence[bool] | None = None
) -> ContextSummary:
    """The thinking level, model and message counts of the context whose rows are
    ``entries``, in the order ``SessionReader.stream_context`` reads them (see
    :func:`~tether.core.session.context_rows.stream_rows`; ``setting_only``: which of them
    only set), by the same rules (:class:`~tether.core.context.stream.ContextStream`), a
    batch at a time: no entry or message is kept (``entries`` may parse lines one at a
    time)."""
    stream = ContextStream(_batches(iter(entries), setting_only))
    messages = llm_messages = 0
    for batch, _roles in stream.batches():
        messages += len(batch)
        llm_messages += sum(map(kept_by_convert, batch))
    return ContextSummary(stream.thinking_level, stream.model, messages, llm_messages)


def _batches(entries: Iterator[Entry], setting_only: Sequence[bool] | None) -> Iterator[EntryBatch]:
    at = 0
    while batch := list(islice(entries, _BATCH)):
        only = None if setting_only is None else list(setting_only[at : at + len(batch)])
        yield batch, only
        at += len(batch)


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
