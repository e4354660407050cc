"""The agent's state between runs and its steering / follow-up queues (pi's ``AgentState``)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar, overload

from tether.hookspecs.events import Message
from tether.hookspecs.providers import Model
from tether.hookspecs.tools import Tool

QueueMode = Literal["one-at-a-time", "all"]
T = TypeVar("T")


class MessageQueue:
    """A thread-safe steering or follow-up queue; ``one-at-a-time`` drains only the oldest."""

    def __init__(self, mode: QueueMode = "one-at-a-time") -> None:
        self.mode: QueueMode = mode
        self._items: list[Message] = []
        self._lock = threading.Lock()

    def enqueue(self, message: Message) -> None:
        with self._lock:
            self._items.append(message)

    def drain(self) -> list[Message]:
        with self._lock:
            count = len(self._items) if self.mode == "all" else min(1, len(self._items))
            drained, self._items = self._items[:count], self._items[count:]
            return drained

    def snapshot(self) -> list[Message]:
        with self._lock:
            return list(self._items)

    def clear(self) -> None:
        with self._lock:
            self._items = []

    def __len__(self) -> int:
        return len(self._items)


class _ListCopy(Generic[T]):
    """A field that holds a copy (a list) of the sequence assigned to it; empty by default."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = f"_{name}"

    @overload
    def __get__(self, state: None, owner: type | None = None) -> Sequence[T]: ...

    @overload
    def __get__(self, state: object, owner: type | None = None) -> list[T]: ...

    def __get__(self, state: object, owner: type | None = None) -> Sequence[T]:
        if state is None:  # the dataclass's default
            return ()
        return getattr(state, self.slot)

    def __set__(self, state: Any, items: Sequence[T]) -> None:
        setattr(state, self.slot, list(items))


@dataclass(kw_only=True, eq=False, repr=False)
class AgentState:
    """The agent's state. Assigning ``tools`` or ``messages`` copies the given list."""

    system_prompt: str = ""
    model: Model | None = None
    thinking_level: str = "off"
    tools: _ListCopy[Tool] = _ListCopy()
    messages: _ListCopy[Message] = _ListCopy()
    is_streaming: bool = field(default=False, init=False)
    streaming_message: Message | None = field(default=None, init=False)
    pending_tool_calls: set[str] = field(default_factory=set, init=False)
    error_message: str | None = field(default=None, init=False)


__all__ = ["AgentState", "MessageQueue", "QueueMode"]
