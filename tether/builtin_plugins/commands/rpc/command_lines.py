"""The command lines on stdin, and whether more of them are already waiting.

pi reads a chunk of stdin and handles every line in it before a prompt's run goes on, so a
prompt followed at once by a ``followUp`` or ``steer`` queues them. tether's prompt runs on
another thread; it waits (briefly) until the reader has handled every line already written,
which it can tell only by reading the descriptor itself: a ``BufferedReader`` hides how much it
holds.
"""

from __future__ import annotations

import io
import os
import select
from typing import BinaryIO

READ_BYTES = 65536


class CommandLines:
    """``readline()`` over ``stream``; ``more_waiting()``: a line can be read without waiting."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._fd: int | None = None
        if os.name == "posix" and hasattr(select, "poll"):
            try:
                self._fd = stream.fileno()
            except (AttributeError, OSError, io.UnsupportedOperation):
                self._fd = None  # an in-memory stream: read as it is
        self._held = bytearray()
        self._searched = 0  # bytes of _held known to hold no newline
        self._ended = False

    def readline(self) -> bytes:
        """The next line with its newline, the last one without, ``b""`` at the end."""
        if self._fd is None:
            return self._stream.readline()
        while True:
            end = self._held.find(b"\n", self._searched)
            if end >= 0:
                line = bytes(self._held[: end + 1])
                del self._held[: end + 1]
                self._searched = 0
                return line
            self._searched = len(self._held)
            if self._ended:
                line = bytes(self._held)
                self._held.clear()
                self._searched = 0
                return line
            chunk = os.read(self._fd, READ_BYTES)
            if chunk:
                self._held += chunk
            else:
                self._ended = True

    def more_waiting(self) -> bool:
        """Whether a line (or the end) is already there: held, being written (part of it is
        held: a long line comes in pieces, however slowly the writer gets to the next one),
        or readable without blocking."""
        if self._fd is None:
            return False
        if self._ended or self._held:
            return True
        poller = select.poll()
        poller.register(self._fd, select.POLLIN | select.POLLHUP | select.POLLERR)
        try:
            return bool(poller.poll(0))
        except OSError:
            return False


__all__ = ["CommandLines"]
