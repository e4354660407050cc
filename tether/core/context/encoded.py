"""A context as ``session context --json`` writes it: encoded once, written in large pieces.

Each message is encoded once (``JSON.stringify``'s bytes, see
:func:`tether.core.storage.format.dumps_bytes`). Its LLM form is the same object for user,
assistant and tool-result messages, so ``llmMessages`` reuses those bytes — runs of
consecutive messages are one byte range — and only the converted ones (bash executions, custom
messages, summaries) are encoded again. Messages can come from a stream, so none needs to stay
in memory; past :data:`SPILL_BYTES` (128 MB) the encoded messages move to an unnamed temporary file
(private, gone when the process ends), so a million-message branch costs no more memory than
its index.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterable
from typing import IO, Any

_SAME_IN_LLM = frozenset({"user", "assistant", "toolResult"})
_BATCH = 8 << 20
SPILL_BYTES = 128 << 20


class EncodedContext:
    """The encoded ``messages`` and ``llmMessages`` arrays, with their lengths."""

    def __init__(self, messages: Iterable[dict[str, Any]]) -> None:
        from tether.core.context.build import convert_to_llm
        from tether.core.storage.format import dumps_bytes

        self._memory = bytearray()
        self._file: IO[bytes] | None = None
        self._spilled = 0  # bytes already in the file
        llm: list[list[int] | bytes] = []  # [start, end] ranges of the messages, or bytes
        count = llm_count = 0
        for message in messages:
            data = dumps_bytes(message)
            start = self._spilled + len(self._memory) + (1 if count else 0)
            self._memory += b"," + data if count else data
            count += 1
            role = message.get("role") if isinstance(message, dict) else None
            if role in _SAME_IN_LLM:
                llm_count += 1
                end = start + len(data)
                last = llm[-1] if llm else None
                if last.__class__ is list and last[1] + 1 == start:  # type: ignore[union-attr]
                    last[1] = end  # type: ignore[index]  # one range with the comma between
                else:
                    llm.append([start, end])
            else:
                for converted in convert_to_llm([message]):
                    llm.append(dumps_bytes(converted))
                    llm_count += 1
            if len(self._memory) >= SPILL_BYTES:
                self._spill()
        self.llm = llm
        self.message_count = count
        self.llm_count = llm_count

    def _spill(self) -> None:
        if self._file is None:
            self._file = tempfile.TemporaryFile(prefix="tether-context-")
        self._file.write(self._memory)
        self._spilled += len(self._memory)
        self._memory = bytearray()

    def _copy(self, out: IO[bytes], start: int, end: int) -> None:
        """Bytes ``start``–``end`` of the encoded messages to ``out``."""
        if start < self._spilled:
            assert self._file is not None
            self._file.flush()
            fd = self._file.fileno()
            stop = min(end, self._spilled)
            while start < stop:
                chunk = os.pread(fd, min(_BATCH, stop - start), start)
                if not chunk:
                    raise OSError(f"temporary file of the context ended at byte {start}")
                out.write(chunk)
                start += len(chunk)
        view = memoryview(self._memory)
        base = self._spilled
        for offset in range(start, end, _BATCH):
            out.write(view[offset - base : min(end, offset + _BATCH) - base])

    def write(self, head: dict[str, Any]) -> None:
        """``{**head, "messages": […], "llmMessages": […]}`` and a newline on stdout."""
        from tether.core.storage.format import dumps_bytes

        sys.stdout.flush()
        out = sys.stdout.buffer
        opening = dumps_bytes(head)[:-1] + (b"," if head else b"")
        out.write(opening + b'"messages":[')
        self._copy(out, 0, self._spilled + len(self._memory))
        out.write(b'],"llmMessages":[')
        for index, part in enumerate(self.llm):
            if index:
                out.write(b",")
            if part.__class__ is list:
                self._copy(out, part[0], part[1])  # type: ignore[index]
            else:
                out.write(part)  # type: ignore[arg-type]
        out.write(b"]}\n")
        out.flush()


__all__ = ["EncodedContext", "SPILL_BYTES"]
