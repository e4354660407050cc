"""Progress on stderr while a summarizer runs (``tether session compact|branch``).

Each status line is printed once, prefixed ``tether:``. On a terminal the current step also
shows a ticking elapsed time, so a slow model call is visibly alive; elsewhere (pipes, CI,
tests) only the plain lines appear.
"""

from __future__ import annotations

import sys
import threading
import time
from types import TracebackType
from typing import TextIO

TICK_SECONDS = 0.5


class StderrProgress:
    """A ``progress`` callback for :func:`tether.core.memory.compaction.compact`; use as a context
    manager so the ticker stops (and the line is finished) whatever happens."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.live = bool(getattr(self.stream, "isatty", lambda: False)())
        self._step = ""
        self._started = time.monotonic()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._ticker: threading.Thread | None = None

    def __call__(self, line: str) -> None:
        with self._lock:
            if self.live and self._step:
                self.stream.write("\n")
            self._step, self._started = line, time.monotonic()
            self.stream.write(f"tether: {line}…" if self.live else f"tether: {line}\n")
            self.stream.flush()
        if self.live and self._ticker is None:
            self._ticker = threading.Thread(target=self._tick, daemon=True)
            self._ticker.start()

    def _tick(self) -> None:
        while not self._stop.wait(TICK_SECONDS):
            with self._lock:
                elapsed = time.monotonic() - self._started
                self.stream.write(f"\r\033[Ktether: {self._step}… {elapsed:.0f}s")
                self.stream.flush()

    def __enter__(self) -> StderrProgress:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
        if self.live and self._step:
            self.stream.write("\n")
            self.stream.flush()


__all__ = ["StderrProgress"]
