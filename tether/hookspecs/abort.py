"""A cancellation signal shared by the loop, providers and tools (pi's AbortSignal)."""

from __future__ import annotations

import threading
from collections.abc import Callable


class AbortSignal:
    """Set once by :meth:`abort`; providers stop streaming, tools kill their processes."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._callbacks: list[Callable[[], None]] = []
        self._lock = threading.Lock()

    @property
    def aborted(self) -> bool:
        return self._event.is_set()

    def abort(self) -> None:
        with self._lock:
            if self._event.is_set():
                return
            self._event.set()
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback()

    def on_abort(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` when aborted (at once if already aborted)."""
        with self._lock:
            if not self._event.is_set():
                self._callbacks.append(callback)
                return
        callback()

    def wait(self, timeout: float | None = None) -> bool:
        """Sleep up to ``timeout`` seconds; return True if aborted meanwhile."""
        return self._event.wait(timeout)


__all__ = ["AbortSignal"]
