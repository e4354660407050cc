"""The context of a branch a batch of messages at a time: a 100k-message branch is never a list.

:class:`ContextStream` turns the entries :func:`~tether.core.context.kept.plan` picks into the
context's messages, pi's rules for every context tether builds (``session context --json``,
the live context, :func:`~tether.core.context.build.build_context_from_path`): the last
compaction on the path first (its summary message), then the entries from its first kept
entry on. Entries that come before that only set the thinking level or the model
(``setting_only``). After the iteration, :attr:`ContextStream.thinking_level` and
:attr:`ContextStream.model` are the context's.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain, repeat
from typing import Any

from tether.core.context.entry_messages import (
    compaction_summary_message,
    context_message,
    model_of_source,
)

Entry = dict[str, Any]
EntryBatch = tuple[list[Entry], list[bool] | None]


class ContextStream:
    """Messages of ``batches`` of entries (each ``(entries, setting_only)``: a list of
    entries and, for each, whether it only sets; ``None`` when none does), compaction first."""

    def __init__(self, batches: Iterable[EntryBatch]) -> None:
        self._batches = batches
        self.thinking_level: Any = "off"
        self._model_source: dict[str, Any] | None = None
        self._model_is_assistant = False

    @property
    def model(self) -> dict[str, Any] | None:
        return model_of_source(self._model_source, self._model_is_assistant)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for messages, _ in self.batches():
            yield from messages

    def messages(self) -> list[dict[str, Any]]:
        """All the messages, as one list (for a context kept whole)."""
        return list(chain.from_iterable(messages for messages, _ in self.batches()))

    def batches(self) -> Iterator[tuple[list[dict[str, Any]], list[Any]]]:
        """The messages a batch of entries at a time, with each message's role. A run of
        message entries is taken in a few passes over the whole run; other entries (and the
        ones that only set) one by one."""
        for entries, setting_only in self._batches:
            kinds = list(map(dict.get, entries, repeat("type")))
            cuts = [i for i, kind in enumerate(kinds) if kind != "message"]
            if setting_only is not None:
                cuts = sorted({*cuts, *(i for i, only in enumerate(setting_only) if only)})
            messages: list[dict[str, Any]] = []
            roles: list[Any] = []
            start = 0
            for cut in [*cuts, len(entries)]:
                if cut > start:
                    run, run_roles = self._messages_of(entries[start:cut])
                    messages += run
                    roles += run_roles
                if cut < len(entries):
                    only = setting_only is not None and setting_only[cut]
                    message = self._message_of(entries[cut], only)
                    if message is not None:
                        messages.append(message)
                        roles.append(message.get("role"))
                start = cut + 1
            yield messages, roles

    def _messages_of(self, entries: list[Entry]) -> tuple[list[dict[str, Any]], list[Any]]:
        """The messages of a run of message entries (none of them only setting), and their
        roles."""
        messages = list(map(dict.get, entries, repeat("message")))
        try:
            roles = list(map(dict.get, messages, repeat("role")))
        except TypeError:  # not all objects: one by one
            kept = [m for m in map(self._message_of, entries, repeat(False)) if m is not None]
            return kept, list(map(dict.get, kept, repeat("role")))
        if "assistant" in roles:
            last = len(roles) - 1 - roles[::-1].index("assistant")
            self._model_source, self._model_is_assistant = messages[last], True
        return messages, roles

    def _message_of(self, entry: Entry, setting_only: bool) -> dict[str, Any] | None:
        """The message ``entry`` adds to the context, if any; notes what it sets."""
        kind = entry.get("type")
        if kind == "message":
            message = entry.get("message")
            if isinstance(message, dict):
                if message.get("role") == "assistant":
                    self._model_source, self._model_is_assistant = message, True
                if not setting_only:
                    return message
        elif kind == "compaction":
            return compaction_summary_message(entry)
        elif kind == "thinking_level_change":
            self.thinking_level = entry.get("thinkingLevel")
        elif kind == "model_change":
            self._model_source, self._model_is_assistant = entry, False
        elif not setting_only and (kind == "custom_message" or kind == "branch_summary"):
            return context_message(entry)
        return None


__all__ = ["ContextStream", "EntryBatch"]
