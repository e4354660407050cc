"""Reading a session's lines while they are being scanned.

:func:`read_streamed` asks for the header row, then has a thread receive the line chunks with
one binary ``COPY … TO STDOUT`` while the caller indexes the chunks already received: the
server's sending and the client's scanning overlap instead of following each other. Lines
appended meanwhile are not read (``first_line <= line_count``: a chunk is the lines of one
append, and the header row's count is the snapshot). The thread always reads to the end, so
the connection is left ready whatever the caller does; an error on the way is raised where the
caller takes the next chunk.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

_COPY = (
    "COPY (SELECT raw FROM tether_entries WHERE session_id = %s AND first_line <= %s "
    "ORDER BY first_line) TO STDOUT (FORMAT binary)"
)
_END = object()


def copy_chunks(conn: Any, session_id: str, line_count: int) -> Iterator[bytes]:
    """The session's chunks, in order, through one binary ``COPY``."""
    with conn.cursor() as cur, cur.copy(_COPY, (session_id, line_count)) as copy:
        copy.set_types(["bytea"])
        for row in copy.rows():
            yield row[0]


class Prefetched:
    """The items of ``produce()``, produced by a thread of their own and taken in order;
    ``fail(exc)`` turns the producer's error into the one the taker sees."""

    def __init__(
        self, produce: Callable[[], Iterator[bytes]], fail: Callable[[BaseException], Exception]
    ) -> None:
        self._items: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._fail = fail
        self._thread = threading.Thread(
            target=self._run, args=(produce,), name="tether-pg-read", daemon=True
        )
        self._thread.start()

    def _run(self, produce: Callable[[], Iterator[bytes]]) -> None:
        try:
            for item in produce():
                self._items.put(item)
        except BaseException as exc:  # handed to the taker, raised there
            self._items.put(exc)
        self._items.put(_END)

    def __iter__(self) -> Iterator[bytes]:
        while True:
            item = self._items.get()
            if item is _END:
                self._thread.join()
                return
            if isinstance(item, BaseException):
                self._thread.join()
                raise self._fail(item) from None
            yield item


__all__ = ["Prefetched", "copy_chunks"]
