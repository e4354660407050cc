"""Shared machinery of the HTTP provider plugins (not a plugin itself).

- :class:`HttpCall` — one POST run in a worker thread; the caller reads lines (SSE) or the
  body from a queue, so an :class:`AbortSignal` ends the call at once, even before headers,
  and a stream that sends only keep-alives for ``options.idle_timeout`` seconds fails as
  transient (retried like a dropped connection).
- :class:`HttpProvider` — the base class: prepares messages for the provider, builds the
  request (subclass), feeds an :class:`Assembler` (subclass) and turns every failure into a
  final ``error`` event with a typed :class:`ProviderError`.
"""

from __future__ import annotations

import json
import queue
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tether.builtin_plugins.providers.http.assembler import Assembler
from tether.builtin_plugins.providers.http.errors import (
    exception_error,
    http_error,
    structured_error,
)
from tether.builtin_plugins.providers.http.sse import SseParser, is_keepalive
from tether.builtin_plugins.providers.messages import fail_message, order_message
from tether.providers import (
    IDLE_TIMEOUT,
    AbortedError,
    LlmContext,
    Model,
    PermanentError,
    StreamEvent,
    StreamOptions,
    TransientError,
    encode_json_body,
)

if TYPE_CHECKING:  # imported where a call is made: a faux or plugin model never loads httpx
    import httpx


@dataclass
class HttpRequest:
    url: str
    headers: dict[str, str]
    body: dict[str, Any]


class HttpCall:
    """One POST whose response is read by a worker thread into a queue.

    :meth:`items` yields ``("open", None)`` once the status is OK, then ``("line", str)`` for
    each line (``stream=True``) or ``("body", bytes)``; failures raise typed errors.
    """

    def __init__(
        self, client: httpx.Client, request: HttpRequest, options: StreamOptions, *, stream: bool
    ) -> None:
        self.client, self.request, self.options, self.stream = client, request, options, stream
        self.queue: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.cancelled = False
        self.response: httpx.Response | None = None
        self.last_data = time.monotonic()
        self.thread = threading.Thread(target=self._work, name="tether-http", daemon=True)

    def _timeout(self) -> Any:
        import httpx

        if self.options.timeout is None:
            return httpx.USE_CLIENT_DEFAULT
        return httpx.Timeout(self.options.timeout, connect=min(self.options.timeout, 30.0))

    def _work(self) -> None:
        req = self.request
        try:
            body = encode_json_body(req.body)  # lone surrogates → U+FFFD
            headers = {"content-type": "application/json", **req.headers}
            with self.client.stream(
                "POST", req.url, content=body, headers=headers, timeout=self._timeout()
            ) as response:
                self.response = response
                if self.cancelled:
                    return
                status = response.status_code
                if status >= 400:
                    error = http_error(status, response.read(), response.headers)
                    self.queue.put(("error", error))
                    return
                self.queue.put(("open", None))
                is_json = response.headers.get("content-type", "").startswith("application/json")
                if self.stream and not is_json:
                    for line in response.iter_lines():
                        if self.cancelled:
                            return
                        self.queue.put(("line", line))
                else:
                    self.queue.put(("body", response.read()))
            self.queue.put(("end", None))
        except BaseException as exc:  # everything is reported to the reading side
            self.queue.put(("error", exc))

    def touch(self) -> None:
        """The reader got real data (not a keep-alive): restart the idle clock."""
        self.last_data = time.monotonic()

    def _next(self) -> tuple[str, Any]:
        """The next queued item; when streaming, a :class:`TransientError` after
        ``idle_timeout`` without :meth:`touch` (keep-alive lines and ``ping`` events do not
        count as data)."""
        idle = self.options.idle_timeout
        idle = IDLE_TIMEOUT if idle is None else idle
        while idle > 0 and self.stream:  # a JSON body: the client's read timeout applies
            remaining = self.last_data + idle - time.monotonic()
            if remaining <= 0:
                raise TransientError(
                    f"no data from the provider for {idle:g} s (only keep-alives, or nothing); "
                    "the limit is provider.idleTimeoutMs in settings.json"
                )
            try:
                return self.queue.get(timeout=remaining)
            except queue.Empty:
                continue
        return self.queue.get()

    def items(self) -> Iterator[tuple[str, Any]]:
        signal = self.options.signal
        if signal is not None:
            if signal.aborted:
                raise AbortedError("Request was aborted")
            signal.on_abort(lambda: self.queue.put(("abort", None)))
        self.touch()
        self.thread.start()
        while True:
            kind, value = self._next()
            if kind == "abort" or (signal is not None and signal.aborted):
                raise AbortedError("Request was aborted")
            if kind == "end":
                return
            if kind == "error":
                raise exception_error(value)
            yield kind, value

    def close(self) -> None:
        """Stop the worker: mark cancelled and shut the socket so a blocked read returns."""
        self.cancelled = True
        response = self.response
        if response is None or not self.thread.is_alive():
            return
        stream = response.extensions.get("network_stream")
        sock = stream.get_extra_info("socket") if stream is not None else None
        if isinstance(sock, socket.socket):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class HttpProvider:
    """Base of the HTTP adapters: ``stream`` over :class:`HttpCall`."""

    api = ""
    assembler: type[Assembler] = Assembler

    def build_request(
        self, model: Model, context: LlmContext, options: StreamOptions, *, stream: bool
    ) -> HttpRequest:  # pragma: no cover - abstract
        raise NotImplementedError

    def request_body(
        self, model: Model, context: LlmContext, options: StreamOptions, *, stream: bool = True
    ) -> dict[str, Any]:
        """The JSON body :meth:`stream` would send for ``context``, without sending it
        (``tether session context --request``): the same preparation, the same builder."""
        return self.build_request(
            model, prepared_context(model, context), options, stream=stream
        ).body

    def stream(
        self, model: Model, context: LlmContext, options: StreamOptions
    ) -> Iterator[StreamEvent]:
        """SSE streaming (``options.stream`` false: one JSON response, then done/error)."""
        return self._run(model, context, options, stream=options.stream)

    def _run(
        self, model: Model, context: LlmContext, options: StreamOptions, *, stream: bool
    ) -> Iterator[StreamEvent]:
        asm = self.assembler(model, context)
        with _client(options) as client:
            call: HttpCall | None = None
            try:
                context = asm.context = prepared_context(model, context)
                request = self.build_request(model, context, options, stream=stream)
                call = HttpCall(client, request, options, stream=stream)
                parser = SseParser()
                for kind, value in call.items():
                    if kind == "open":
                        call.touch()
                        yield StreamEvent("start", partial=asm.message)
                    elif kind == "body":
                        _parse_body(asm, value)
                    else:
                        event = parser.line(value)
                        if event is not None:
                            if not is_keepalive(event):
                                call.touch()
                            yield from asm.feed(event)
                tail = parser.flush()
                if tail is not None:
                    yield from asm.feed(tail)
                asm.finish()
            except Exception as exc:
                error = exception_error(exc)
                asm.finish(failed=True)
                yield StreamEvent("error", message=fail_message(asm.message, error), error=error)
                return
            finally:
                if call is not None:
                    call.close()
        yield StreamEvent("done", message=order_message(asm.message))


def _parse_body(asm: Assembler, raw: bytes) -> None:
    """A whole JSON response (non-streaming, or a server that ignored ``stream: true``)."""
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise PermanentError(f"invalid JSON from the provider: {raw[:200]!r}") from exc
    if isinstance(data, dict) and data.get("error"):
        raise structured_error(data["error"])
    asm.parse_body(data if isinstance(data, dict) else {})


class _client:
    """``options.client`` as is, or a temporary default client closed afterwards."""

    def __init__(self, options: StreamOptions) -> None:
        self.given = options.client
        self.own: httpx.Client | None = None

    def __enter__(self) -> httpx.Client:
        if self.given is not None:
            return self.given
        from tether.builtin_plugins.providers.http import new_client

        self.own = new_client()
        return self.own

    def __exit__(self, *exc: object) -> None:
        if self.own is not None:
            self.own.close()


def prepared_context(model: Model, context: LlmContext) -> LlmContext:
    """The context with pi's provider-side transforms applied."""
    from tether.providers import prepare_for_provider

    messages = prepare_for_provider(context.messages, model)
    return LlmContext(context.system_prompt, messages, context.tools)


def data_url(block: dict[str, Any]) -> str:
    return f"data:{block.get('mimeType', 'image/png')};base64,{block.get('data', '')}"
