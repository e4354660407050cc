"""A context as ``session context --json`` writes it: encoded once, written in large pieces.

Each message is encoded once (``JSON.stringify``'s bytes, see
:func:`tether.builtin_plugins.storage.format.stringify.dumps_bytes`). Its LLM form is the same
object for user, assistant and tool-result messages, so ``llmMessages`` reuses those bytes —
runs of consecutive messages are one byte range — and only the converted ones (bash
executions, custom messages, summaries) are encoded again. Messages can come from a stream, so
none needs to stay in memory; past :data:`SPILL_BYTES` (1 MB) the encoded messages move to an
unnamed temporary file (private, gone when the process ends), so a million-message branch
costs no more memory than its index.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any

from tether import convert_to_llm
from tether.builtin_plugins.storage.format import fastjson
from tether.builtin_plugins.storage.format.fastjson import dumps_or_none
from tether.builtin_plugins.storage.format.json_runs import (
    dumps_joined_pieces,
    dumps_many_or_none,
)
from tether.builtin_plugins.storage.format.stringify import dumps_bytes
from tether.builtin_plugins.storage.jsonl.context.output_copy import (
    reopened_for_reading,
    write_pieces,
    write_slices,
)
from tether.storage import Pending

_SAME_IN_LLM = frozenset({"user", "assistant", "toolResult"})
SPILL_BYTES = 1 << 20  # in memory at most (128 MB kept 121 MB on 100k entries, issue 24)


class EncodedContext:
    """The encoded ``messages`` and ``llmMessages`` arrays, with their lengths.

    ``messages`` may hold :class:`Pending` items (their bytes are copied). ``keep_items``:
    :attr:`items` lists the messages, a :class:`Pending` for each user, assistant and tool
    result message (a branch's messages without their parsed objects, for ``context`` hooks).
    :meth:`extend` and :meth:`extend_batches` add more messages.
    """

    def __init__(
        self,
        messages: Iterable[dict[str, Any] | Pending] = (),
        *,
        keep_items: bool = False,
        spill_bytes: int | None = None,
        spill_file: IO[bytes] | None = None,
    ) -> None:
        self._memory = bytearray()  # the bytes after those of the segments
        # the first bytes, in order: [a file or bytes, where they start in it, how many]
        self._segments: list[list[Any]] = []
        self._file = spill_file  # the file that spilling appends to (at its end)
        if spill_file is not None:
            self._segments.append([spill_file, spill_file.tell(), 0])
        self._spilled = 0  # bytes in the segments
        self._spill_at = SPILL_BYTES if spill_bytes is None else spill_bytes
        self._keep = keep_items
        self.llm: list[list[int] | bytes] = []  # [start, end] ranges of the messages, or bytes
        self.items: list[dict[str, Any] | Pending] = []
        self.message_count = self.llm_count = 0
        self._run: list[int] | None = None  # the range of llm that the next message may extend
        self.extend(messages)

    def parse(self, data: bytes) -> Any:
        """``JSON.parse`` of a message's bytes (for :class:`Pending`)."""
        return fastjson.loads(data)

    @property
    def size(self) -> int:
        """How many bytes the messages take, commas between them included."""
        return self._spilled + len(self._memory)

    def extend(self, messages: Iterable[dict[str, Any] | Pending]) -> None:
        """Encode ``messages`` after those already here."""
        memory = self._memory
        llm = self.llm
        keep = self.items.append if self._keep else None
        count, llm_count, size = self.message_count, self.llm_count, self.size
        run = self._run
        spill_at = self._spill_at
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
                    keep(message)  # type: ignore[arg-type]
                run = None
                for converted in convert_to_llm([message]):
                    llm.append(dumps_bytes(converted))
                    llm_count += 1
            if len(memory) >= spill_at:
                self._spill()
                memory = self._memory
        self.message_count, self.llm_count, self._run = count, llm_count, run

    def extend_batches(self, batches: Iterable[tuple[list[dict[str, Any]], list[Any]]]) -> None:
        """Encode the messages of ``batches`` (``(messages, their roles)``, see
        :meth:`ContextStream.batches`) after those already here: each run of user, assistant
        and tool-result messages in one call
        (:func:`~tether.builtin_plugins.storage.format.json_runs.dumps_joined_pieces`), the others
        one by one."""
        same = _SAME_IN_LLM.__contains__
        for messages, roles in batches:
            if _SAME_IN_LLM.issuperset(roles):  # one run (most batches of a long branch)
                if roles:
                    self._add_run(messages, roles)
                continue
            start = 0
            for at in [i for i, role in enumerate(roles) if not same(role)] + [len(roles)]:
                if at > start:
                    self._add_run(messages[start:at], roles[start:at])
                if at < len(roles):
                    self.extend(messages[at : at + 1])
                start = at + 1

    def _add_run(self, messages: list[dict[str, Any]], roles: list[str]) -> None:
        """Add ``messages`` (all user, assistant or tool-result ones, so one range of
        ``llmMessages`` too)."""
        pieces = None if self._keep else dumps_joined_pieces(messages)
        if pieces is None:  # each message's bytes (for the items), or one needs a closer look
            datas = dumps_many_or_none(messages)
            if None in datas:
                pairs = zip(datas, messages, strict=True)
                datas = [d if d is not None else dumps_bytes(m) for d, m in pairs]
            pieces = [b",".join(datas)]  # type: ignore[arg-type]
        memory = self._memory
        if self.message_count:
            memory += b","
        start = self.size
        for piece in pieces:  # copied once, here
            memory += piece
        end = self.size
        count = len(messages)
        self.message_count += count
        self.llm_count += count
        run = self._run
        if run is not None and run[1] + 1 == start:
            run[1] = end
        else:
            self._run = [start, end]
            self.llm.append(self._run)
        if self._keep:
            at = start
            for data, role in zip(datas, roles, strict=True):
                self.items.append(Pending(self, at, at + len(data), role))  # type: ignore[arg-type]
                at += len(data) + 1  # type: ignore[arg-type]
        if len(self._memory) >= self._spill_at:
            self._spill()

    def _spill(self) -> None:
        """Move the bytes in memory to the end of the spill file (a new one after a
        segment of another's)."""
        if self._file is None:
            import tempfile  # only a large context spills: not imported at every start

            self._file = tempfile.TemporaryFile(prefix="tether-context-")
            self._segments.append([self._file, 0, 0])
        write_slices(self._file, self._memory)
        self._segments[-1][2] += len(self._memory)
        self._spilled += len(self._memory)
        self._memory = bytearray()

    def flush_to_file(self) -> list[Any]:
        """Spill everything; returns the one segment ``[file, start, size]`` that then holds
        all the messages' bytes (when the context was given a ``spill_file``, or spilled
        only once)."""
        self._spill()
        assert self._file is not None
        self._file.flush()
        assert len(self._segments) == 1
        return list(self._segments[0])

    def same_items(self, messages: list[Any]) -> bool:
        """Whether ``messages`` encode as :attr:`items` do: each is the item itself or one
        with the same bytes (a copy a hook read and left as it was)."""
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
        write_pieces(out, self._ranges(start, end))
        return out.getvalue()

    def _ranges(self, start: int, end: int) -> Iterator[tuple[Any, int, int]]:
        """Where bytes ``start``–``end`` of the encoded messages are: ``(a file or a buffer,
        where they start in it, how many)`` in order."""
        offset = 0  # where the segment starts among the messages' bytes
        for source, first, length in self._segments:
            if start >= end:
                return
            if start < offset + length:
                stop = min(end, offset + length) - offset  # within the segment
                yield source, first + start - offset, stop - start + offset
                start = offset + stop
            offset += length
        if start < end:
            yield self._memory, start - self._spilled, end - start

    def write(self, head: dict[str, Any], *, release: bool = False) -> None:
        """``{**head, "messages": […], "llmMessages": […]}`` and a newline on stdout.

        ``release``: the last use of this context (it cannot be read after). When stdout is a
        regular file that can be opened again for reading, the temporary files are emptied
        once ``messages`` is written and ``llmMessages`` is copied from the output's own
        ``messages``: the output's new pages take the memory those files held (on a virtual
        machine, memory touched for the first time can cost more than the copy itself)."""
        sys.stdout.flush()
        out = sys.stdout.buffer
        opening = dumps_bytes(head)[:-1] + (b"," if head else b"")
        write_pieces(out, [opening + b'"messages":['])
        out.flush()
        spilled = any(not isinstance(s[0], (bytes, bytearray)) for s in self._segments)
        again = reopened_for_reading(out) if release and spilled else None
        write_pieces(out, self._ranges(0, self.size))
        pieces: list[Any] = [b'],"llmMessages":[']
        if again is not None:  # the messages are in the output from ``start`` on
            source, start = again
            self._release()
        for index, part in enumerate(self.llm):
            if index:
                pieces.append(b",")
            if part.__class__ is not list:
                pieces.append(part)
            elif again is not None:
                pieces.append((source, start + part[0], part[1] - part[0]))  # type: ignore[index]
            else:
                pieces += self._ranges(part[0], part[1])  # type: ignore[index]
        pieces.append(b"]}\n")
        try:
            write_pieces(out, pieces)
            out.flush()
        finally:
            if again is not None:
                source.close()

    def _release(self) -> None:
        """Empty the temporary files (their memory is free again); nothing can be read after."""
        for segment in self._segments:
            if not isinstance(segment[0], (bytes, bytearray)):
                segment[0].truncate(0)
        self._segments, self._spilled, self._memory = [], 0, bytearray()


__all__ = ["SPILL_BYTES", "EncodedContext", "Pending"]
