"""pi's RPC response objects and the JSON-lines writer shared by the RPC modules."""

from __future__ import annotations

import json
import threading
from typing import Any, TextIO


def success(cid: Any, command: str, data: Any = ...) -> dict[str, Any]:
    """pi's success response (``data`` left out when not given)."""
    out: dict[str, Any] = {"id": cid, "type": "response", "command": command, "success": True}
    if data is not ...:
        out["data"] = data
    if cid is None:
        del out["id"]
    return out


def failure(cid: Any, command: Any, message: str) -> dict[str, Any]:
    """pi's error response (``id``/``command`` left out when unknown, as JSON.stringify does)."""
    out: dict[str, Any] = {"id": cid, "type": "response", "command": command}
    out.update(success=False, error=message)
    return {k: v for k, v in out.items() if not (k in ("id", "command") and v is None)}


class Output:
    """Writes JSON lines to stdout, one at a time (events come from several threads); once
    the reader has gone (an error of :attr:`gone`), it stops writing and the work goes on."""

    gone: tuple[type[BaseException], ...] = (BrokenPipeError, ValueError, OSError)

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.lock = threading.Lock()
        self.closed = False

    def write(self, record: dict[str, Any]) -> None:
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":"), default=str)
        with self.lock:
            if self.closed:
                return
            try:
                self.out.write(line + "\n")
                self.out.flush()
            except self.gone:
                self.closed = True


__all__ = ["Output", "failure", "success"]
