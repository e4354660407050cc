"""``tether rpc`` (``tether --mode rpc``): pi's RPC protocol over stdin/stdout.

Commands are JSON objects, one per line on stdin (LF framing only; a trailing CR is dropped),
each with an optional ``id`` that its response repeats. Responses are ``{id?, type:
"response", command, success, data? | error}``; agent events (:mod:`.wire`) are written
between them as they happen. A line that is not JSON gets ``{type: "response", command:
"parse", success: false, error: "Failed to parse command: …"}``; an unknown command gets
``{type: "response", command: <type>, success: false, error: "Unknown command: <type>"}``
(without the id, as pi). Nothing on stdin ends the process but its end (EOF) or SIGTERM.

A prompt runs in a worker thread: its response comes once the run has started (or the
prompt was handled by a plugin, or queued with ``streamingBehavior``); a failure before that
is its error response, a failure after it comes as events. ``compact`` and ``bash`` run in
worker threads too, so ``abort`` and ``abort_bash`` are read while they run; every other
command is answered at once, in order.
"""

from __future__ import annotations

import json
import re
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, BinaryIO, TextIO

from tether.builtin_plugins.commands.rpc.responses import Output, failure, success
from tether.builtin_plugins.commands.rpc.session_commands import text_of
from tether.builtin_plugins.commands.rpc.wire import PiEvents
from tether.hookspecs.events import AgentEvent

Response = dict[str, Any] | None
PLUGIN_FAILURE = re.compile(
    r"^plugin '(?P<plugin>[^']+)' failed in (?P<hook>[\w.]+): (?P<error>.*)$"
)
BACKGROUND = frozenset({"prompt", "compact", "bash", "export_html"})
#: Commands that need the agent idle: they wait (up to :data:`SETTLE_SECONDS`) for a prompt
#: whose last run has ended but whose checks after it (retry, compaction) are still going.
NEEDS_IDLE = frozenset({"new_session", "switch_session", "fork", "clone", "compact"})
SETTLE_SECONDS = 5.0


def _finite(text: str) -> float:
    """A JSON number that overflows a double (``1e999``) is refused, as it cannot be echoed."""
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"{text} is out of range")
    return value


def _no_constant(name: str) -> Any:
    """``NaN``/``Infinity`` are not JSON (pi's ``JSON.parse`` refuses them): a parse error."""
    raise ValueError(f"{name} is not a JSON value")


class QueueTracker:
    """pi's ``queue_update``: the texts waiting in the steering and follow-up queues."""

    def __init__(self, emit: Callable[[dict[str, Any]], None]) -> None:
        self.emit = emit
        self.steering: list[str] = []
        self.follow_up: list[str] = []
        self.lock = threading.Lock()

    def add(self, kind: str, text: str) -> None:
        with self.lock:
            (self.steering if kind == "steer" else self.follow_up).append(text)
        self.announce()

    def delivered(self, message: Any) -> None:
        """A user message starts: drop it from the queue it came from (before the event)."""
        if not isinstance(message, dict) or message.get("role") != "user":
            return
        text = text_of(message.get("content"))
        with self.lock:
            for queue in (self.steering, self.follow_up):
                if text and text in queue:
                    queue.remove(text)
                    break
            else:
                return
        self.announce()

    def clear(self) -> None:
        with self.lock:
            had = bool(self.steering or self.follow_up)
            self.steering, self.follow_up = [], []
        if had:
            self.announce()

    def announce(self) -> None:
        with self.lock:
            event = {"type": "queue_update", "steering": list(self.steering)}
            event["followUp"] = list(self.follow_up)
        self.emit(event)

    def __len__(self) -> int:
        return len(self.steering) + len(self.follow_up)


class RpcServer:
    """One RPC session: a harness, the command loop, the event stream (see module doc)."""

    def __init__(
        self, harness: Any, out: TextIO, *, scoped_models: list[Any] | None = None
    ) -> None:
        from tether.builtin_plugins.commands.rpc.bash import BashRunner

        self.harness = harness
        self.output = Output(out)
        self.encoder = PiEvents()
        self.queues = QueueTracker(self.output.write)
        self.bash = BashRunner(harness.cwd)
        self.scoped_models = scoped_models or []
        self.streaming = threading.Event()  # a prompt's run (retries, compactions) is going
        self.compacting = threading.Event()
        self.idle = threading.Event()  # pulsed when a prompt has finished
        self.in_run = threading.Event()  # between an agent_start and its agent_end
        self.prompt_pending = False  # a prompt accepted whose run has not started yet
        self.caught_up = threading.Event()  # the reader has handled every line written so far
        self.caught_up.set()  # (no reader: nothing to wait for)
        self.lines_read = 0  # lines the reader has taken in
        self.handling = False  # the reader holds a whole line (parsing it, answering it)
        self.settling = False  # the reader waits for a prompt's run to start (settle)
        self.workers: list[threading.Thread] = []
        self.pending_bash: list[dict[str, Any]] = []  # bash run while streaming: stored after
        self.lock = threading.Lock()
        self.before_start: Callable[[], None] | None = None
        harness.on_warning = self.warning
        harness.subscribe(self.on_event)

    # -- events ----------------------------------------------------------------------------------

    def on_event(self, event: AgentEvent) -> None:
        if event.type == "message_start":
            self.queues.delivered(event.data.get("message"))
        elif event.type == "agent_start":
            self.in_run.set()
            if self.before_start is not None:
                self.before_start()  # the prompt's response comes before its events
        elif event.type == "agent_end":
            self.in_run.clear()
        for record in self.encoder.encode(event):
            self.output.write(record)

    def warning(self, message: str) -> None:
        """Plugin failures become pi's ``extension_error``; other warnings go to stderr."""
        match = PLUGIN_FAILURE.match(message)
        if match is not None:
            self.output.write(
                {
                    "type": "extension_error",
                    "extensionPath": match["plugin"],
                    "event": match["hook"],
                    "error": match["error"],
                }
            )
            return
        try:
            sys.stderr.write(f"tether: warning: {message}\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass

    # -- the loop --------------------------------------------------------------------------------

    def serve(self, stdin: BinaryIO) -> None:
        """Read commands until EOF; then wait for the running work and return."""
        from tether.builtin_plugins.commands.rpc.command_lines import CommandLines

        lines = CommandLines(stdin)
        while True:
            if not lines.more_waiting():
                self.caught_up.set()  # every line written so far is handled
            raw = lines.readline()
            self.caught_up.clear()
            self.lines_read += 1
            self.handling = True
            if not raw:
                self.caught_up.set()
                break
            line = raw.decode("utf-8", errors="replace")
            if line.endswith("\n"):
                line = line[:-1]
            if line.endswith("\r"):
                line = line[:-1]
            if line.strip():
                self.handle_line(line)
            self.handling = False
        for worker in list(self.workers):
            worker.join()

    def handle_line(self, line: str) -> None:
        try:
            command = json.loads(line, parse_constant=_no_constant, parse_float=_finite)
        except (ValueError, RecursionError) as exc:  # not JSON, NaN/Infinity, nested too deeply
            self.output.write(failure(None, "parse", f"Failed to parse command: {exc}"))
            return
        if not isinstance(command, dict):
            self.output.write(failure(None, None, "Unknown command: undefined"))
            return
        if command.get("type") == "extension_ui_response":
            return  # tether's plugins ask no UI questions over RPC
        if command.get("type") in BACKGROUND:
            self._in_background(command)
            return
        self.output.write(self.answer(command))

    def answer(self, command: dict[str, Any]) -> dict[str, Any]:
        """The response to one command (never raises)."""
        from tether.builtin_plugins.commands.rpc.commands import HANDLERS

        kind, cid = command.get("type"), command.get("id")
        handler = HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            name = kind if isinstance(kind, str) else None
            return failure(None, name, f"Unknown command: {kind if name else 'undefined'}")
        if kind in NEEDS_IDLE:
            self.settle()
        try:
            result = handler(self, command)
        except Exception as exc:  # noqa: BLE001 - every failure is a response, never an exit
            return failure(cid, kind, str(exc) or type(exc).__name__)
        return success(cid, kind, *(() if result is ... else (result,)))

    def settle(self) -> None:
        """Wait while the prompt that is streaming has no run going (see :data:`NEEDS_IDLE`)."""
        deadline = time.monotonic() + SETTLE_SECONDS
        self.settling = True  # a run waiting for the reader (prompting._catch_up) goes on
        try:
            while self.streaming.is_set() and not self.in_run.is_set():
                if time.monotonic() > deadline:
                    return
                self.idle.wait(0.02)
        finally:
            self.settling = False

    def _in_background(self, command: dict[str, Any]) -> None:
        if command.get("type") == "prompt":
            from tether.builtin_plugins.commands.rpc.prompting import start_prompt

            start_prompt(self, command)
            return
        self.spawn(lambda: self.output.write(self.answer(command)))

    def spawn(self, work: Callable[[], None]) -> threading.Thread:
        thread = threading.Thread(target=work, daemon=True, name="tether-rpc-work")
        with self.lock:
            self.workers = [w for w in self.workers if w.is_alive()]
            self.workers.append(thread)
        thread.start()
        return thread

    def store_bash(self, message: dict[str, Any]) -> None:
        """A ``bashExecution`` message into the context and the session (after a run)."""
        with self.lock:
            if self.streaming.is_set():
                self.pending_bash.append(message)
                return
        self.harness.agent.state.messages.append(message)
        self.harness.persist(message)

    def flush_bash(self) -> None:
        with self.lock:
            pending, self.pending_bash = self.pending_bash, []
        for message in pending:
            self.harness.agent.state.messages.append(message)
            self.harness.persist(message)


__all__ = ["QueueTracker", "RpcServer"]
