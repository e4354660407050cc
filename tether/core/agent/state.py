"""The agent's state between runs and its steering / follow-up queues (pi's ``AgentState``)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Literal

from tether.core.agent.providers import Model
from tether.core.agent.tools import Tool
from tether.hookspecs.events import Message

QueueMode = Literal["one-at-a-time", "all"]


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


class AgentState:
    """The agent's state. Assigning ``tools`` or ``messages`` copies the given list."""

    def __init__(
        self,
        *,
        system_prompt: str = "",
        model: Model | None = None,
        thinking_level: str = "off",
        tools: Sequence[Tool] = (),
        messages: Sequence[Message] = (),
    ) -> None:
        self.system_prompt = system_prompt
        self.model = model
        self.thinking_level = thinking_level
        self._tools = list(tools)
        self._messages = list(messages)
        self.is_streaming = False
        self.streaming_message: Message | None = None
        self.pending_tool_calls: set[str] = set()
        self.error_message: str | None = None

    @property
    def tools(self) -> list[Tool]:
        return self._tools

    @tools.setter
    def tools(self, tools: Sequence[Tool]) -> None:
        self._tools = list(tools)

    @property
    def messages(self) -> list[Message]:
        return self._messages

    @messages.setter
    def messages(self, messages: Sequence[Message]) -> None:
        self._messages = list(messages)


__all__ = ["AgentState", "MessageQueue", "QueueMode"]
