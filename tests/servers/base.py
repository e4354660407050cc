"""The scripted loopback HTTP server shared by the OpenAI and Anthropic test servers.

A real ``ThreadingHTTPServer`` on ``127.0.0.1`` (port 0) in a background thread. Each POST
takes the next scripted :class:`Reply` from a queue (``server.push(...)`` or the shortcuts; when
the queue is empty, ``server.responder(body)`` answers if set) and is recorded as a
:class:`RecordedRequest` (method, path, lower-cased headers, parsed JSON body, when it arrived
and when its answer was sent) in ``server.requests``. Streaming replies are SSE over chunked
transfer encoding, so a reply with ``cut_after`` drops the connection mid-body the way a
failing network does.
"""

from __future__ import annotations

import json
import socket
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

SseItem = tuple[str | None, Any]  # (event name or None, data: dict/list → JSON, str as is)


@dataclass
class ToolCall:
    name: str
    arguments: dict[str, Any] | str = field(default_factory=dict)  # str: sent verbatim
    id: str = ""

    def args_text(self) -> str:
        return self.arguments if isinstance(self.arguments, str) else json.dumps(self.arguments)


@dataclass
class Usage:
    input: int = 10
    output: int = 5
    cache_read: int = 0
    cache_write: int = 0


@dataclass
class Reply:
    """One scripted answer. Neutral fields; each server renders them in its API's format."""

    text: str | list[str] | None = None  # a list gives the exact stream chunks
    thinking: str | list[str] | None = None
    thinking_signature: str = "sig-test"  # Anthropic thinking signature
    reasoning_field: str = "reasoning_content"  # OpenAI-compatible reasoning delta field
    tool_calls: list[ToolCall] = field(default_factory=list)
    usage: Usage | None = field(default_factory=Usage)
    stop: str | None = None  # the API's raw stop/finish reason; default from the content
    status: int = 200
    error_message: str | None = None  # status >= 400: the provider's error wording
    error_type: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    raw_body: bytes | None = None  # sent verbatim instead of the rendered body
    events: list[SseItem] | None = None  # sent verbatim instead of the rendered SSE events
    stream_error: tuple[str, str] | None = None  # (type, message) sent in-stream, then end
    chunk_size: int = 4  # characters per text/thinking/argument chunk
    chunk_delay: float = 0.0  # seconds between SSE events (slow streams)
    headers_delay: float = 0.0  # seconds before the status line (slow first byte)
    cut_after: int | None = None  # drop the connection after this many SSE events
    model: str | None = None  # model name the server reports (default: the requested one)
    done_marker: bool = True  # OpenAI: send ``data: [DONE]``


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: Any
    raw: bytes
    started: float = 0.0  # time.monotonic() when the request's body was read
    finished: float = 0.0  # ... when the answer was sent (0.0 until then)

    def overlaps(self, other: RecordedRequest) -> bool:
        """Whether the two requests were in flight at the same time."""
        return self.started < other.finished and other.started < self.finished


def request_texts(body: Any) -> str:
    """The texts of a request body's messages (string or block content), one per line."""
    texts = []
    for message in (body or {}).get("messages") or []:
        content = message.get("content")
        if isinstance(content, str):
            texts.append(content)
        elif isinstance(content, list):
            texts += [str(block.get("text", "")) for block in content if isinstance(block, dict)]
    return "\n".join(texts)


def summary_instructions(body: Any) -> str:
    """The instructions of a summary request: the text after its ``<conversation>`` and
    ``<previous-summary>`` blocks."""
    text = request_texts(body)
    end = max(text.rfind("</conversation>"), text.rfind("</previous-summary>"))
    return text[end:] if end >= 0 else text


def is_turn_prefix_request(body: Any) -> bool:
    """Whether a summary request asks for a split turn's prefix (its sections are pi's)."""
    return "## Original Request" in summary_instructions(body)


def chunks(value: str | list[str] | None, size: int) -> list[str]:
    if value is None:
        return []
    if isinstance(value, list):
        return value
    return [value[i : i + size] for i in range(0, len(value), max(1, size))] or [""]


class _RecordingHTTPServer(ThreadingHTTPServer):
    """Keeps a request thread's error (a client that hung up mid-reply) in ``errors`` instead
    of printing it: a CLI run in the test's own process would read it as its own stderr."""

    errors: list[str]

    def handle_error(self, request: Any, client_address: Any) -> None:
        self.errors = [*getattr(self, "errors", []), traceback.format_exc()]


class ScriptedServer:
    """Base class: subclasses set ``endpoint`` and render replies (``sse_events``/``json_body``)."""

    endpoint = "/"
    api = ""  # the tether api name of the adapter that talks to this server
    default_model = "test-model"

    def __init__(self) -> None:
        self.replies: deque[Reply] = deque()
        self.requests: list[RecordedRequest] = []
        self.disconnects = 0  # streams the client closed before the end (abort tests)
        # when no scripted reply is queued: a function of the request body (a server that
        # answers by what it is asked, e.g. bench/dropping_server.py's summarizing model)
        self.responder: Callable[[Any], Reply] | None = None
        self.lock = threading.Lock()
        self.httpd = _RecordingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self.httpd.daemon_threads = True
        self.httpd.block_on_close = False
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    # -- lifecycle ---------------------------------------------------------------------------

    def start(self) -> ScriptedServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> ScriptedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def base_url(self) -> str:  # what goes into models.json "baseUrl"
        return self.url

    # -- scripting ---------------------------------------------------------------------------

    def push(self, *replies: Reply) -> None:
        with self.lock:
            self.replies.extend(replies)

    def reply(self, **fields: Any) -> Reply:
        reply = Reply(**fields)
        self.push(reply)
        return reply

    def text(self, text: str | list[str], **fields: Any) -> Reply:
        return self.reply(text=text, **fields)

    def tool_calls(self, *calls: ToolCall, **fields: Any) -> Reply:
        return self.reply(tool_calls=list(calls), **fields)

    def error(self, status: int, message: str | None = None, **fields: Any) -> Reply:
        return self.reply(status=status, error_message=message, **fields)

    def answer_split_turn(self, history: Reply, prefix: Reply) -> None:
        """Answer summary requests by kind, whatever order they arrive in (a split turn's two
        are sent at once): ``prefix`` to a turn-prefix request, ``history`` to any other."""
        self.responder = lambda body: prefix if is_turn_prefix_request(body) else history

    # -- reading what was received -----------------------------------------------------------

    @property
    def last_request(self) -> RecordedRequest:
        return self.requests[-1]

    @property
    def bodies(self) -> list[Any]:
        return [r.body for r in self.requests]

    # -- rendering (subclasses) --------------------------------------------------------------

    def sse_events(self, reply: Reply, request: Any) -> list[SseItem]:  # pragma: no cover
        raise NotImplementedError

    def json_body(self, reply: Reply, request: Any) -> Any:  # pragma: no cover
        raise NotImplementedError

    def error_body(self, reply: Reply) -> Any:  # pragma: no cover
        raise NotImplementedError

    def render_sse(self, item: SseItem) -> bytes:
        name, data = item
        text = data if isinstance(data, str) else json.dumps(data)
        head = f"event: {name}\n" if name else ""
        return (head + "".join(f"data: {line}\n" for line in text.split("\n")) + "\n").encode()

    def model_entry(self, model_id: str | None = None, **fields: Any) -> dict[str, Any]:
        """A models.json model object for this server's model."""
        return {
            "id": model_id or self.default_model,
            "contextWindow": 128000,
            "maxTokens": 4096,
            "input": ["text", "image"],
            **fields,
        }

    def models_json(
        self, provider: str = "test", *, api_key_env: str | None = None, **model_fields: Any
    ) -> dict[str, Any]:
        """A whole models.json pointing provider ``provider`` at this server."""
        entry: dict[str, Any] = {"baseUrl": self.base_url, "api": self.api}
        if api_key_env:
            entry["apiKeyEnv"] = api_key_env
        entry["models"] = [self.model_entry(**model_fields)]
        return {"providers": {provider: entry}}

    def write_models_json(self, home: Path, provider: str = "test", **kwargs: Any) -> Path:
        """Write :meth:`models_json` to ``<home>/models.json``; select it with
        ``--provider <provider>`` (model ``test-model``) and ``TETHER_HOME=<home>``."""
        home.mkdir(parents=True, exist_ok=True)
        path = home / "models.json"
        path.write_text(json.dumps(self.models_json(provider, **kwargs), indent=2))
        return path


def _handler_for(server: ScriptedServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:  # keep test output clean
            pass

        def setup(self) -> None:
            super().setup()
            # Headers and body leave in separate writes: with Nagle's algorithm on, the body
            # waits for the client's delayed ACK, 40 ms per request.
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("content-length") or 0))
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = None
            headers = {k.lower(): v for k, v in self.headers.items()}
            record = RecordedRequest("POST", self.path, headers, body, raw, time.monotonic())
            try:
                self._answer(record, body)
            finally:
                record.finished = time.monotonic()

        def _answer(self, record: RecordedRequest, body: Any) -> None:
            with server.lock:
                server.requests.append(record)
                reply = server.replies.popleft() if server.replies else None
            if reply is None and server.responder is not None:
                reply = server.responder(body)
            if not self.path.endswith(server.endpoint):
                return self._json(404, {"error": {"message": f"no route {self.path}"}})
            if reply is None:
                reply = Reply(status=500, error_message="tests/servers: no scripted reply left")
            if reply.headers_delay:
                time.sleep(reply.headers_delay)
            if reply.status >= 400:
                if reply.raw_body is not None:
                    return self._send(reply.status, reply.raw_body, reply.headers)
                return self._json(reply.status, server.error_body(reply), reply.headers)
            if reply.raw_body is not None:
                return self._send(200, reply.raw_body, reply.headers)
            if not (isinstance(body, dict) and body.get("stream") is True):
                return self._json(200, server.json_body(reply, body), reply.headers)
            self._stream(reply, body)

        def _json(self, status: int, data: Any, headers: dict[str, str] | None = None) -> None:
            extra = {"content-type": "application/json", **(headers or {})}
            self._send(status, json.dumps(data).encode(), extra)

        def _send(self, status: int, payload: bytes, headers: dict[str, str]) -> None:
            self.send_response(status)
            for key, value in headers.items():
                self.send_header(key, value)
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def _stream(self, reply: Reply, body: Any) -> None:
            events = reply.events if reply.events is not None else server.sse_events(reply, body)
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("cache-control", "no-cache")
            self.send_header("transfer-encoding", "chunked")
            for key, value in reply.headers.items():
                self.send_header(key, value)
            self.end_headers()
            try:
                for index, item in enumerate(events):
                    if reply.cut_after is not None and index >= reply.cut_after:
                        self._cut()
                        return
                    if reply.chunk_delay:
                        time.sleep(reply.chunk_delay)
                    payload = server.render_sse(item)
                    self.wfile.write(b"%X\r\n%s\r\n" % (len(payload), payload))
                    self.wfile.flush()
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                with server.lock:
                    server.disconnects += 1
                self.close_connection = True

        def _cut(self) -> None:
            self.wfile.flush()
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    return Handler
