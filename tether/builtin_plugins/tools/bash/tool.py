"""The ``bash`` tool itself; the plugin that registers it is ``tool_bash``."""

from __future__ import annotations

import os
import select
import shutil
import signal
import subprocess
import threading
import time
from typing import Any

from tether.builtin_plugins.tools._shared.paths import require_str
from tether.builtin_plugins.tools._shared.scaffold import builtin_tool, object_schema, param
from tether.builtin_plugins.tools._shared.truncate import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_LINES,
    format_size,
)
from tether.builtin_plugins.tools.bash.output_buffer import OutputBuffer, OutputSnapshot
from tether.tools import FunctionTool, ToolContext, ToolError, ToolResult, js_number

DESCRIPTION = (
    "Run a bash command in the current working directory and return its combined stdout and "
    f"stderr. Only the last {DEFAULT_MAX_LINES} lines or {DEFAULT_MAX_BYTES // 1024}KB are "
    "returned (whichever limit is reached first); longer output is saved in full to a temp "
    "file whose path is given. timeout (seconds) is optional."
)

PARAMETERS = object_schema(
    {
        "command": param("string", "The bash command line to run"),
        "timeout": param(
            "number", "Seconds after which the command is killed (optional, no default)"
        ),
    },
    required=["command"],
)

EXIT_GRACE_SECONDS = 0.1  # after the shell exits, how long to wait for descendants' output
UPDATE_INTERVAL_SECONDS = 0.1


def _shell() -> list[str]:
    bash = shutil.which("bash")
    return [bash, "-c"] if bash else ["/bin/sh", "-c"]


def _command_prefix(settings: Any) -> str | None:
    """pi's ``shellCommandPrefix`` setting, from a tether Settings object or a dict."""
    if settings is None:
        return None
    if isinstance(settings, dict):
        value = settings.get("shellCommandPrefix")
    else:
        value = (getattr(settings, "model_extra", None) or {}).get("shellCommandPrefix")
    return value if isinstance(value, str) and value else None


def _timeout(args: dict[str, Any]) -> float | None:
    value = args.get("timeout")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ToolError("Argument 'timeout' must be a number of seconds")
    return float(value)


class _Process:
    """A started command and the kill switch shared by timeout, abort and the reader."""

    def __init__(self, command: str, cwd: str) -> None:
        self.proc = subprocess.Popen(
            [*_shell(), command],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self._lock = threading.Lock()
        self._reaped = False
        self.aborted = False
        self.timed_out = False

    def kill_group(self) -> None:
        with self._lock:
            if self._reaped:
                return
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError, AttributeError):
                try:
                    self.proc.kill()
                except ProcessLookupError:
                    pass

    def on_abort(self) -> None:
        self.aborted = True
        self.kill_group()

    def on_timeout(self) -> None:
        self.timed_out = True
        self.kill_group()

    def pump(self, buffer: OutputBuffer, ctx: ToolContext) -> int:
        """Read output until EOF (or shortly after the shell exits); return the exit code."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        exited_at: float | None = None
        last_update = 0.0
        while True:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                data = os.read(fd, 65536)
                if not data:
                    break
                buffer.append(data)
                now = time.monotonic()
                if ctx.on_update is not None and now - last_update >= UPDATE_INTERVAL_SECONDS:
                    last_update = now
                    ctx.on_update(_progress(buffer.snapshot()))
            if self.proc.poll() is not None:
                exited_at = exited_at if exited_at is not None else time.monotonic()
                if time.monotonic() - exited_at > EXIT_GRACE_SECONDS:
                    break
        code = self.proc.wait()
        with self._lock:
            self._reaped = True
        self.proc.stdout.close()
        return code


def _progress(snapshot: OutputSnapshot) -> ToolResult:
    details = None
    if snapshot.truncation.truncated:
        details = {
            "truncation": snapshot.truncation.to_json(),
            "fullOutputPath": snapshot.full_output_path,
        }
    return ToolResult([{"type": "text", "text": snapshot.content}], details=details)


def format_output(
    snapshot: OutputSnapshot, last_line_bytes: int, empty: str = "(no output)"
) -> tuple[str, dict[str, Any] | None]:
    """The model's text with pi's truncation notice, and the details to keep."""
    cut = snapshot.truncation
    text = snapshot.content or empty
    if not cut.truncated:
        return text, None
    path = snapshot.full_output_path
    start = cut.total_lines - cut.output_lines + 1
    end = cut.total_lines
    if cut.last_line_partial:
        text += (
            f"\n\n[Showing last {format_size(cut.output_bytes)} of line {end} "
            f"(line is {format_size(last_line_bytes)}). Full output: {path}]"
        )
    elif cut.truncated_by == "lines":
        text += f"\n\n[Showing lines {start}-{end} of {cut.total_lines}. Full output: {path}]"
    else:
        text += (
            f"\n\n[Showing lines {start}-{end} of {cut.total_lines} "
            f"({format_size(DEFAULT_MAX_BYTES)} limit). Full output: {path}]"
        )
    return text, {"truncation": cut.to_json(), "fullOutputPath": path}


def _with_status(text: str, status: str) -> str:
    return f"{text}\n\n{status}" if text else status


def run_bash(tool_call_id: str, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    """Execute ``bash``: ``{command, timeout?}``."""
    command = require_str(args, "command")
    timeout = _timeout(args)
    prefix = _command_prefix(ctx.settings)
    if prefix:
        command = f"{prefix}\n{command}"
    if not os.path.isdir(ctx.cwd):
        raise ToolError(
            f"Working directory does not exist: {ctx.cwd}\nCannot execute bash commands."
        )
    if ctx.signal.aborted:
        raise ToolError("Command aborted")
    if ctx.on_update is not None:
        ctx.on_update(ToolResult([], details=None))
    buffer = OutputBuffer()
    try:
        process = _Process(command, ctx.cwd)
    except OSError as exc:
        raise ToolError(f"Could not start the shell: {exc}") from exc
    ctx.signal.on_abort(process.on_abort)
    timer = None
    if timeout is not None and timeout > 0:
        timer = threading.Timer(timeout, process.on_timeout)
        timer.daemon = True
        timer.start()
    try:
        code = process.pump(buffer, ctx)
    finally:
        if timer is not None:
            timer.cancel()
        buffer.finish()
    snapshot = buffer.snapshot()
    buffer.close()
    if process.aborted or process.timed_out:
        text, details = format_output(snapshot, buffer.last_line_bytes, empty="")
        status = (
            "Command aborted"
            if process.aborted
            else f"Command timed out after {js_number(timeout or 0)} seconds"
        )
        return ToolResult.text(_with_status(text, status), details=details or {}, is_error=True)
    text, details = format_output(snapshot, buffer.last_line_bytes)
    if code > 0:  # a negative code means "killed by a signal": pi reports no exit code then
        status = f"Command exited with code {code}"
        return ToolResult.text(_with_status(text, status), details=details or {}, is_error=True)
    return ToolResult.text(text, details=details)


def make_bash_tool() -> FunctionTool:
    snippet = "Run shell commands (tests, builds, git, and other programs)"
    return builtin_tool("bash", run_bash, DESCRIPTION, PARAMETERS, snippet)
