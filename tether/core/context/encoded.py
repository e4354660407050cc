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

import io
import os
import sys
import tempfile
from collections.abc import Iterable
from typing import IO, Any

_SAME_IN_LLM = frozenset({"user", "assistant", "toolResult"})
_BATCH = 8 << 20
SPILL_BYTES = 128 << 20


class Pending:
    """A message of an :class:`EncodedContext` still as its bytes: :meth:`load` parses them
    (a new object each time), :meth:`data` gives them."""

    __slots__ = ("_encoded", "_start", "_end", "role")

    def __init__(self, encoded: EncodedContext, start: int, end: int, role: str) -> None:
        self._encoded, self._start, self._end, self.role = encoded, start, end, role

    def data(self) -> bytes:
        return self._encoded.read(self._start, self._end)

    def load(self) -> dict[str, Any]:
        """The message as ``JSON.parse`` reads its bytes back."""
        from tether.core.storage import fastjson

        value: dict[str, Any] = fastjson.loads(self.data())
        return value


class EncodedContext:
    """The encoded ``messages`` and ``llmMessages`` arrays, with their lengths.

    ``messages`` may hold :class:`Pending` items (their bytes are copied). ``keep_items``:
    :attr:`items` lists the messages, a :class:`Pending` for each user, assistant and tool
    result message (a branch's messages without their parsed objects, for ``context`` hooks).
    """

    def __init__(
        self, messages: Iterable[dict[str, Any] | Pending], *, keep_items: bool = False
    ) -> None:
        from tether.core.context.build import convert_to_llm
        from tether.core.storage.fastjson import dumps_or_none
        from tether.core.storage.format import dumps_bytes

        self._memory = memory = bytearray()
        self._file: IO[bytes] | None = None
        self._spilled = 0  # bytes already in the file
        llm: list[list[int] | bytes] = []  # [start, end] ranges of the messages, or bytes
        self.items: list[dict[str, Any] | Pending] = []
        keep = self.items.append if keep_items else None
        count = llm_count = size = 0  # size: bytes encoded so far (file and memory)
        run: list[int] | None = None  # the range of llm that the next message may extend
        spill_at = SPILL_BYTES
        for message in messages:
            if message.__class__ is Pending:
                data = message.data()  # type: ignore[union-attr]
                role: Any = message.role  # type: ignore[union-attr]
            else:
                fast = dumps_or_none(message)
                data = dumps_bytes(message) if fast is None else fast
                role = message.get("role") if isinstance(message, dict) else None
            if count:
                memory += b","
                size += 1
            start = size
            memory += data
            size += len(data)
            count += 1
            if role in _SAME_IN_LLM:
                if keep is not None:
                    keep(Pending(self, start, size, role))
                llm_count += 1
                if run is not None and run[1] + 1 == start:
                    run[1] = size  # one range with the comma between
                else:
                    run = [start, size]
                    llm.append(run)
            else:
                if keep is not None:
                    keep(message)
                run = None
                for converted in convert_to_llm([message]):
                    llm.append(dumps_bytes(converted))
                    llm_count += 1
            if len(memory) >= spill_at:
                self._spill()
                memory = self._memory
        self.llm = llm
        self.message_count = count
        self.llm_count = llm_count

    def _spill(self) -> None:
        if self._file is None:
            self._file = tempfile.TemporaryFile(prefix="tether-context-")
        self._file.write(self._memory)
        self._spilled += len(self._memory)
        self._memory = bytearray()

    def same_items(self, messages: list[Any]) -> bool:
        """Whether ``messages`` encode as :attr:`items` do: each is the item itself or one
        with the same bytes (a copy a hook read and left as it was)."""
        from tether.core.storage.format import dumps_bytes

        items = self.items
        if len(messages) != len(items):
            return False
        for message, item in zip(messages, items, strict=True):
            if message is not item:
                if message.__class__ is Pending:
                    return False
                pending = item.__class__ is Pending
                original = item.data() if pending else dumps_bytes(item)  # type: ignore[union-attr]
                if dumps_bytes(message) != original:
                    return False
        return True

    def read(self, start: int, end: int) -> bytes:
        """Bytes ``start``–``end`` of the encoded messages."""
        if start >= self._spilled:
            return bytes(self._memory[start - self._spilled : end - self._spilled])
        out = io.BytesIO()
        self._copy(out, start, end)
        return out.getvalue()

    def _copy(self, out: IO[bytes], start: int, end: int) -> None:
        """Bytes ``start``–``end`` of the encoded messages to ``out``."""
        if start < self._spilled:
            assert self._file is not None
            self._file.flush()
            fd = self._file.fileno()
            stop = min(end, self._spilled)
            start = _send(fd, out, start, stop)
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


def _send(fd: int, out: IO[bytes], start: int, stop: int) -> int:
    """Bytes ``start``–``stop`` of the file ``fd`` to ``out`` by the kernel (``sendfile``) as
    far as it can; returns where it stopped (``stop`` unless ``out`` is no file or the
    kernel refuses: the caller copies the rest)."""
    try:
        out_fd = out.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
        return start
    out.flush()
    while start < stop:
        try:
            sent = os.sendfile(out_fd, fd, start, min(_BATCH << 4, stop - start))
        except OSError:
            return start
        if not sent:
            return start
        start += sent
    return start


__all__ = ["SPILL_BYTES", "EncodedContext", "Pending"]
