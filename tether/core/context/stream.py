"""The context of a branch one message at a time: a 100k-message branch is never a list.

:class:`ContextStream` yields the messages that
:func:`~tether.core.context.build.build_context_from_path` would return, in the same order,
from the entries that can change the context (see ``SessionReader.stream_context``): the last
compaction on the path first (its summary message), then the entries from its first kept
entry on. Entries that come before that only set the thinking level or the model
(``setting_only``). After the iteration, :attr:`ContextStream.thinking_level` and
:attr:`ContextStream.model` are the context's.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from tether.core.context.build import (
    compaction_summary_message,
    context_message,
    model_of_source,
)

Entry = dict[str, Any]


class ContextStream:
    """Messages of ``entries`` (pairs ``(entry, setting_only)``, compaction first)."""

    def __init__(self, entries: Iterable[tuple[Entry, bool]]) -> None:
        self._entries = entries
        self.thinking_level: Any = "off"
        self._thinking_seen = False
        self._model_source: dict[str, Any] | None = None
        self._model_is_assistant = False
        self._model_after: tuple[dict[str, Any] | None] | None = None  # set by follow()

    @property
    def model(self) -> dict[str, Any] | None:
        if self._model_after is not None:
            return self._model_after[0]
        return model_of_source(self._model_source, self._model_is_assistant)

    def settings(self) -> tuple[Any, ...]:
        """What the entries read so far set: for :meth:`follow` of a stream of the entries
        before them (in another process: the values are plain data)."""
        model = (self.model,) if self._model_source is not None else None
        return (self._thinking_seen, self.thinking_level, model)

    def follow(self, settings: tuple[Any, ...]) -> None:
        """Take the :meth:`settings` of the entries after this stream's as the last word."""
        thinking_seen, thinking_level, model = settings
        if thinking_seen:
            self.thinking_level, self._thinking_seen = thinking_level, True
        if model is not None:
            self._model_after = model

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for entry, setting_only in self._entries:
            kind = entry.get("type")
            if kind == "message":
                message = entry.get("message")
                if isinstance(message, dict):
                    if message.get("role") == "assistant":
                        self._model_source, self._model_is_assistant = message, True
                    if not setting_only:
                        yield message
            elif kind == "compaction":
                yield compaction_summary_message(entry)
            elif kind == "thinking_level_change":
                self.thinking_level = entry.get("thinkingLevel")
                self._thinking_seen = True
            elif kind == "model_change":
                self._model_source, self._model_is_assistant = entry, False
            elif not setting_only and (kind == "custom_message" or kind == "branch_summary"):
                converted = context_message(entry)
                if converted is not None:
                    yield converted


__all__ = ["ContextStream"]
