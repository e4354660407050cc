"""The RPC ``bash`` command: run a shell command for the user, as pi's ``executeBash`` does.

The command runs in its own process group (``abort_bash`` kills the group); stdout and stderr
are read together; the output is cut to its tail (pi's limits, the bash tool's
:func:`truncate_tail`) and the whole output is kept in a temp file when cut. The result is a
``bashExecution`` message, which the caller stores in the session and the agent's context.
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import threading
from typing import Any

from tether.builtin_plugins.tools._shared.truncate import truncate_tail
from tether.providers import now_ms


class BashRunner:
    """Runs one user command at a time; :meth:`abort` kills the running one."""

    def __init__(self, cwd: str) -> None:
        self.cwd = cwd
        self.process: subprocess.Popen[bytes] | None = None
        self.cancelled = False
        self.lock = threading.Lock()

    def run(self, command: str) -> dict[str, Any]:
        """Run ``command``; return pi's ``bashExecution`` message."""
        shell = os.environ.get("SHELL") or "/bin/sh"
        with self.lock:
            self.cancelled = False
            self.process = subprocess.Popen(
                [shell if os.path.exists(shell) else "/bin/sh", "-c", command],
                cwd=self.cwd,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        process = self.process
        raw, _ = process.communicate()
        code = process.returncode
        with self.lock:
            self.process = None
            cancelled = self.cancelled
        text = raw.decode("utf-8", errors="replace").replace("\r\n", "\n")
        cut = truncate_tail(text)
        full_path = None
        if cut.truncated:
            with tempfile.NamedTemporaryFile(
                "w", prefix="tether-bash-", suffix=".log", delete=False, encoding="utf-8"
            ) as handle:
                handle.write(text)
                full_path = handle.name
        return {
            "role": "bashExecution",
            "command": command,
            "output": cut.content,
            "exitCode": None if cancelled or code is None or code < 0 else code,
            "cancelled": cancelled,
            "truncated": cut.truncated,
            "fullOutputPath": full_path,
            "timestamp": now_ms(),
        }

    def abort(self) -> None:
        """Kill the running command's process group (nothing if none runs)."""
        with self.lock:
            process = self.process
            if process is None:
                return
            self.cancelled = True
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def bash_result(message: dict[str, Any]) -> dict[str, Any]:
    """pi's ``BashResult`` (the response data) for a ``bashExecution`` message."""
    out = {
        "output": message["output"],
        "exitCode": message["exitCode"],
        "cancelled": message["cancelled"],
        "truncated": message["truncated"],
    }
    if message.get("fullOutputPath"):
        out["fullOutputPath"] = message["fullOutputPath"]
    return out


__all__ = ["BashRunner", "bash_result"]
