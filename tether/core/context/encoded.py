"""A context as `session context --json` writes it: encoded once, written in large pieces.

Each message is encoded once (``JSON.stringify``'s bytes, see
:func:`tether.core.storage.format.dumps_bytes`) into one buffer; its LLM form is the same
object for user, assistant and tool-result messages, so ``llmMessages`` reuses those bytes
(a slice of the buffer) and only the converted ones (bash executions, custom messages,
summaries) are encoded again. Messages can come from a stream: none needs to stay in memory.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

_SAME_IN_LLM = frozenset({"user", "assistant", "toolResult"})
_BATCH = 1 << 20


class EncodedContext:
    """The encoded ``messages`` and ``llmMessages`` arrays, with their lengths."""

    def __init__(self, messages: Iterable[dict[str, Any]]) -> None:
        from tether.core.context.build import convert_to_llm
        from tether.core.storage.format import dumps_bytes

        buffer = bytearray()
        llm: list[tuple[int, int] | bytes] = []
        count = 0
        for message in messages:
            if count:
                buffer += b","
            start = len(buffer)
            buffer += dumps_bytes(message)
            count += 1
            role = message.get("role") if isinstance(message, dict) else None
            if role in _SAME_IN_LLM:
                llm.append((start, len(buffer)))
            else:
                llm.extend(dumps_bytes(converted) for converted in convert_to_llm([message]))
        self.messages = buffer
        self.llm = llm
        self.message_count = count

    @property
    def llm_count(self) -> int:
        return len(self.llm)

    def write(self, head: dict[str, Any]) -> None:
        """``{**head, "messages": […], "llmMessages": […]}`` and a newline on stdout."""
        from tether.core.storage.format import dumps_bytes

        sys.stdout.flush()
        out = sys.stdout.buffer
        view = memoryview(self.messages)
        opening = dumps_bytes(head)[:-1] + (b"," if head else b"")
        out.write(opening + b'"messages":[')
        for start in range(0, len(view), _BATCH):
            out.write(view[start : start + _BATCH])
        pending: list[Any] = [b'],"llmMessages":[']
        held = 0
        for index, part in enumerate(self.llm):
            if index:
                pending.append(b",")
            piece = view[part[0] : part[1]] if isinstance(part, tuple) else part
            pending.append(piece)
            held += len(piece)
            if held >= _BATCH:  # one system call per megabyte even when stdout is unbuffered
                out.write(b"".join(pending))
                pending.clear()
                held = 0
        pending.append(b"]}\n")
        out.write(b"".join(pending))
        out.flush()


__all__ = ["EncodedContext"]
