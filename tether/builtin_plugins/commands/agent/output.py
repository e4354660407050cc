"""Output of ``tether chat`` / ``tether run``: JSON event lines, streamed text, progress.

- :class:`JsonLines` — ``tether run --json``: every event as pi's ``--mode json`` line, compact
  as the RPC lines (``JSON.stringify``'s spacing);
- :func:`event_json` — an agent/harness event as one JSON object, every field in camelCase;
- :class:`ChatPrinter` — answer text streamed to stdout as it arrives, tool calls, retries and
  errors on stderr, a spinner on stderr while compacting or summarizing;
- :func:`run_interruptibly` — run work in a thread; Ctrl-C, SIGTERM and SIGHUP call ``abort``
  (running tools' process groups are killed) instead of killing the program.
"""

from __future__ import annotations

import json
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any, TextIO, TypeVar

from tether.builtin_plugins.commands.rpc.responses import Output
from tether.builtin_plugins.commands.rpc.wire import PiEvents, plain
from tether.memory import content_text

T = TypeVar("T")
SPINNER = "|/-\\"


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def jsonable(value: Any) -> Any:
    """Event payloads as JSON values: tool results, stream events and errors as objects."""
    return plain(value, _event_object)


def _event_object(value: Any) -> Any:
    if isinstance(value, BaseException):
        out = {"kind": getattr(value, "kind", type(value).__name__), "message": str(value)}
        if getattr(value, "status", None) is not None:
            out["status"] = value.status  # type: ignore[attr-defined]
        return out
    if hasattr(value, "content") and hasattr(value, "is_error"):  # a ToolResult
        return {
            "content": jsonable(value.content),
            "details": jsonable(value.details),
            "isError": bool(value.is_error),
        }
    if hasattr(value, "delta") and hasattr(value, "content_index"):  # a StreamEvent
        return {"type": value.type, "contentIndex": value.content_index, "delta": value.delta}
    return str(value)


def event_json(event: Any) -> dict[str, Any]:
    data = {camel(k): jsonable(v) for k, v in event.data.items()}
    return {"type": event.type, **data}


class JsonLines(Output):
    """Writes every event as pi's ``--mode json`` JSON lines (``rpc/wire.py``'s shapes); a
    reader gone (``| head``) stops the writing, not the work."""

    gone = (BrokenPipeError,)

    def __init__(self, out: TextIO | None = None) -> None:
        super().__init__(out or sys.stdout)
        self.encoder = PiEvents()

    def __call__(self, event: Any) -> None:
        for record in self.encoder.encode(event):
            self.write(record)


class Spinner:
    """A progress indicator on stderr: an animated line on a terminal, plain lines otherwise."""

    def __init__(self, err: TextIO | None = None) -> None:
        self.err = err or sys.stderr
        self.tty = bool(getattr(self.err, "isatty", lambda: False)())
        self.label = ""
        self.stop_event: threading.Event | None = None
        self.thread: threading.Thread | None = None

    def start(self, label: str) -> None:
        self.stop()
        self.label = label
        if not self.tty:
            self.err.write(f"{label}…\n")
            self.err.flush()
            return
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self._spin, args=(self.stop_event,), daemon=True)
        self.thread.start()

    def update(self, line: str) -> None:
        if self.tty:
            self.label = line
        elif self.stop_event is not None or self.label:
            self.err.write(f"  {line}\n")
            self.err.flush()

    def _spin(self, stop: threading.Event) -> None:
        frame = 0
        while not stop.wait(0.1):
            self.err.write(f"\r{SPINNER[frame % len(SPINNER)]} {self.label[:70]:<70}")
            self.err.flush()
            frame += 1

    def stop(self, final: str | None = None) -> None:
        if self.stop_event is not None:
            self.stop_event.set()
            if self.thread is not None:
                self.thread.join()
            self.err.write("\r" + " " * 74 + "\r")
            self.stop_event = self.thread = None
        self.label = ""
        if final:
            self.err.write(final + "\n")
            self.err.flush()


def _short(value: Any, limit: int = 80) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    text = text.replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _ends_the_wait(kind: str, data: dict[str, Any]) -> bool:
    """The model's first token (or the end of the turn) stops the chat's spinner."""
    if kind == "message_end":
        return (data.get("message") or {}).get("role") == "assistant"
    return kind in ("message_update", "tool_execution_start", "compaction_start", "agent_end")


class ChatPrinter:
    """Streams the assistant's text to stdout; tools, retries, compactions to stderr."""

    def __init__(self, out: TextIO | None = None, err: TextIO | None = None) -> None:
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.spinner = Spinner(self.err)
        self.open_line = False
        self.waiting = False  # the spinner shows between a prompt and the first token

    def _text(self, text: str) -> None:
        self.out.write(text)
        self.out.flush()
        self.open_line = not text.endswith("\n")

    def _note(self, text: str) -> None:
        if self.waiting:  # a retry line: the spinner makes way
            self.waiting = False
            self.spinner.stop()
        if self.open_line:
            self._text("\n")
        self.err.write(text + "\n")
        self.err.flush()

    def __call__(self, event: Any) -> None:
        kind, data = event.type, event.data
        if kind == "agent_start" and self.spinner.tty:  # until the first token: "waiting"
            self.waiting = True
            self.spinner.start("waiting for the model")
        elif self.waiting and _ends_the_wait(kind, data):
            self.waiting = False
            self.spinner.stop()
        if kind == "message_update":
            stream = data.get("assistant_message_event")
            if getattr(stream, "type", None) == "text_delta":
                self._text(stream.delta)
        elif kind == "message_end" and (data.get("message") or {}).get("role") == "custom":
            message = data["message"]
            if message.get("display"):
                text = content_text(message.get("content"), "\n")
                self._note(f"[{message.get('customType')}] {text}")
        elif kind == "message_end" and (data.get("message") or {}).get("role") == "assistant":
            message = data["message"]
            if self.open_line:
                self._text("\n")
            if message.get("stopReason") == "aborted":
                self._note("(aborted)")
            elif message.get("stopReason") == "error":
                self._note(f"error: {message.get('errorMessage')}")
        elif kind == "tool_execution_start":
            self._note(f"· {data.get('tool_name')} {_short(data.get('args'))}")
        elif kind == "tool_execution_end" and data.get("is_error"):
            content = getattr(data.get("result"), "content", None) or [{}]
            self._note(f"  ! {_short(content[0].get('text', ''))}")
        elif kind == "auto_retry_start":
            self._note(
                f"retrying in {data.get('delay_ms')} ms (attempt {data.get('attempt')}/"
                f"{data.get('max_attempts')}): {_short(data.get('error_message'))}"
            )
        elif kind == "auto_retry_end" and not data.get("success"):
            reason = f" ({data['reason']})" if data.get("reason") else ""
            self._note(f"giving up: {_short(data.get('final_error'))}{reason}")
        elif kind == "compaction_start":
            self.spinner.start(f"compacting ({data.get('reason')})")
        elif kind == "progress":
            self.spinner.update(str(data.get("line", "")))
        elif kind == "compaction_end":
            self.spinner.stop(_compaction_line(data))
        elif kind == "context_pruned":
            from tether.builtin_plugins.commands.agent.feedback import pruned_line

            self._note(pruned_line(data))


def _compaction_line(data: dict[str, Any]) -> str:
    from tether.builtin_plugins.commands.agent.feedback import compaction_outcome

    line = compaction_outcome(data)
    if data.get("result") and isinstance(data.get("gate"), dict):
        from tether.memory import gate_line

        line += f"; {gate_line(data['gate'])}"
    return line


#: Signals that abort the running turn: Ctrl-C, ``kill``, a closed terminal.
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
STOP_GRACE_SECONDS = 10.0  # after SIGTERM/SIGHUP, how long the aborted turn may take to end


def stop_message(signum: int) -> str:
    """The one-line reason a run stopped on ``signum``."""
    if signum == signal.SIGINT:
        return "interrupted"
    return f"terminated by {signal.Signals(signum).name}; the turn was aborted"


def run_interruptibly(work: Callable[[], T], abort: Callable[[], None]) -> tuple[T, int]:
    """Run ``work`` in a thread; SIGINT, SIGTERM or SIGHUP call ``abort`` (which kills running
    tools' process groups) and wait for the work to end. A second SIGINT while waiting exits
    (``SystemExit(130)``) without waiting.

    Returns ``(result, signum)``: the first stop signal received, ``0`` if none. After
    SIGTERM/SIGHUP the wait is bounded (:data:`STOP_GRACE_SECONDS`). An exception of ``work``
    is re-raised here.
    """
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["result"] = work()
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc

    received: list[int] = []
    thread = threading.Thread(target=target, daemon=True, name="tether-turn")
    main = threading.current_thread() is threading.main_thread()
    previous: dict[int, Any] = {}
    if main:

        def on_signal(signum: int, frame: Any) -> None:
            received.append(signum)
            if signum == signal.SIGINT and received.count(signum) > 1:
                sys.stderr.write("\n^C again: exiting; the session keeps every finished message\n")
                raise SystemExit(130)  # the work thread is a daemon; appends are whole lines
            name = "^C" if signum == signal.SIGINT else signal.Signals(signum).name
            try:
                sys.stderr.write(f"\n{name} aborting…\n")
                sys.stderr.flush()
            except (OSError, ValueError):  # a closed terminal (SIGHUP): keep aborting
                pass
            abort()

        for signum in STOP_SIGNALS:
            previous[signum] = signal.signal(signum, on_signal)
    try:
        thread.start()
        while thread.is_alive():
            thread.join(0.05)
            if any(s != signal.SIGINT for s in received):
                thread.join(STOP_GRACE_SECONDS)
                break
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if "error" in box:
        raise box["error"]
    return box.get("result"), (received[0] if received else 0)


__all__ = [
    "STOP_SIGNALS",
    "ChatPrinter",
    "JsonLines",
    "Spinner",
    "event_json",
    "jsonable",
    "run_interruptibly",
    "stop_message",
]
