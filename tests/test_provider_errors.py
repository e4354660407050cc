"""Failures of real HTTP calls map to typed errors; streams end in ``error``, never raise.

Both adapters run against their loopback servers (parametrized ``server``)."""

from __future__ import annotations

import dataclasses
import re
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.servers import AnthropicServer, OpenAIServer, Reply, ScriptedServer, Usage
from tether.builtin_plugins.providers.anthropic.messages import AnthropicMessagesProvider
from tether.builtin_plugins.providers.openai.completions import OpenAICompletionsProvider
from tether.builtin_plugins.providers.provider_errors import error_of, is_context_overflow
from tether.hookspecs.abort import AbortSignal
from tether.hookspecs.providers import (
    AbortedError,
    ContextOverflowError,
    LlmContext,
    Model,
    PermanentError,
    StreamOptions,
    TransientError,
    drain,
)

ADAPTERS = {
    "openai": (OpenAIServer, OpenAICompletionsProvider, "openai-completions"),
    "anthropic": (AnthropicServer, AnthropicMessagesProvider, "anthropic-messages"),
}
CONTEXT = LlmContext(
    "sys", [{"role": "user", "content": [{"type": "text", "text": "q"}], "timestamp": 1}]
)

# pi's retry classifier (spec §5.11): a case-insensitive search of the error text.
PI_RETRY = re.compile(
    r"overloaded|provider.?returned.?error|rate.?limit|too many requests|429|500|502|503|504|"
    r"service.?unavailable|server.?error|internal.?error|network.?error|connection.?error|"
    r"connection.?refused|connection.?lost|websocket.?closed|websocket.?error|"
    r"other side closed|fetch failed|upstream.?connect|reset before headers|socket hang up|"
    r"ended without|http2 request did not get a response|time(?:d)? out|timeout|terminated|"
    r"retry delay",
    re.IGNORECASE,
)


class Target:
    def __init__(self, name: str, server: ScriptedServer, client: httpx.Client) -> None:
        _, provider_cls, api = ADAPTERS[name]
        self.name, self.server, self.provider = name, server, provider_cls()
        self.client = client
        self.model = Model(
            provider=name, id="m", api=api, base_url=server.base_url, context_window=1000
        )

    def options(self, **options: Any) -> StreamOptions:
        return StreamOptions(client=self.client, **options)

    def run(self, **options: Any) -> list[Any]:
        return list(self.provider.stream(self.model, CONTEXT, self.options(**options)))

    def final(self, **options: Any) -> Any:
        events = self.run(**options)
        assert events[-1].type == "error", events[-1]
        return events[-1]


@pytest.fixture(scope="module")
def client() -> Iterator[httpx.Client]:
    """One client for the module (creating one costs ~0.1 s)."""
    with httpx.Client() as shared:
        yield shared


@pytest.fixture(params=sorted(ADAPTERS))
def target(request: pytest.FixtureRequest, client: httpx.Client) -> Iterator[Target]:
    with ADAPTERS[request.param][0]() as server:
        yield Target(request.param, server, client)


def test_429_is_transient_with_retry_after(target: Target) -> None:
    target.server.error(429, "Rate limit reached for requests", headers={"retry-after": "7"})
    event = target.final()
    assert isinstance(event.error, TransientError) and event.error.retryable
    assert (event.error.status, event.error.retry_after) == (429, 7.0)
    message = event.message
    assert message["stopReason"] == "error"
    assert message["errorMessage"] == "429 Rate limit reached for requests"
    assert message["content"] == [] and message["usage"]["totalTokens"] == 0


def test_retry_after_forms(target: Target) -> None:
    target.server.error(503, "busy", headers={"retry-after-ms": "1500"})
    target.server.error(503, "busy", headers={"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"})
    assert target.final().error.retry_after == 1.5
    assert target.final().error.retry_after == 0.0  # a date in the past: retry now


@pytest.mark.parametrize("status", [408, 409, 500, 502, 503, 504, 529])
def test_transient_statuses(target: Target, status: int) -> None:
    target.server.error(status, "try later")
    error = target.final().error
    assert isinstance(error, TransientError) and error.status == status


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
def test_permanent_statuses(target: Target, status: int) -> None:
    target.server.error(status, "bad request: unknown parameter foo")
    assert isinstance(target.final().error, PermanentError)


def test_overflow_in_provider_wording(target: Target) -> None:
    target.server.overflow()
    event = target.final()
    assert isinstance(event.error, ContextOverflowError) and not event.error.retryable
    assert is_context_overflow(event.message, 1000)
    assert isinstance(error_of(event.message), ContextOverflowError)


def test_413_and_bodyless_400_are_overflow(target: Target) -> None:
    target.server.error(413, "request_too_large: Request exceeds the maximum size")
    target.server.error(400, raw_body=b"")
    assert isinstance(target.final().error, ContextOverflowError)
    event = target.final()
    assert event.message["errorMessage"] == "400 status code (no body)"
    assert isinstance(event.error, ContextOverflowError)


def test_rate_limit_wording_is_not_overflow(target: Target) -> None:
    """tether differs from pi: pi's wording rule reads this 429 as a context overflow (it
    matches "too many tokens") and would compact; tether's typed error is a transient one."""
    target.server.error(429, "Too many tokens per minute, please wait")
    event = target.final()
    assert is_context_overflow(event.message, 1000)  # pi's isContextOverflow: overflow
    assert isinstance(event.error, TransientError)  # tether: retry after a delay
    assert isinstance(error_of(event.message, 1000), TransientError)  # also from a stored one


def test_retry_decided_by_status_not_substring(target: Target) -> None:
    """tether differs from pi (design §8.13, spec §13 #37): pi retries any error whose text
    contains e.g. "500"; tether decides by status code, so this 400 is permanent."""
    target.server.error(400, "max_tokens: 5000 > 4096, which is the maximum allowed")
    event = target.final()
    assert PI_RETRY.search(event.message["errorMessage"])  # pi: retried 3 times
    assert isinstance(event.error, PermanentError) and not event.error.retryable  # tether


def test_stream_cut_midway_is_transient_and_keeps_partial(target: Target) -> None:
    target.server.reply(text="Hello there, this answer gets cut", cut_after=5)
    events = target.run()
    assert events[0].type == "start"
    final = events[-1]
    assert isinstance(final.error, TransientError)
    assert final.message["stopReason"] == "error"
    text = final.message["content"][0]["text"]
    assert text and "Hello there, this answer gets cut".startswith(text)


def test_stream_ending_without_completion_is_transient(target: Target) -> None:
    """A clean end of body without the API's final event (no finish_reason / message_stop)."""
    events = target.server.sse_events(Reply(text="Hello there"), {})
    target.server.reply(events=events[:4])
    event = target.final()
    assert isinstance(event.error, TransientError)
    assert event.message["content"][0]["text"].startswith("He")


@pytest.mark.parametrize(
    ("kind", "message", "expected"),
    [
        ("overloaded_error", "Overloaded", TransientError),
        ("server_error", "The server had an error", TransientError),
        (
            "invalid_request_error",
            "prompt is too long: 2000 tokens > 1000 maximum",
            ContextOverflowError,
        ),
        ("invalid_request_error", "messages: roles must alternate", PermanentError),
    ],
)
def test_error_inside_the_stream(target: Target, kind: str, message: str, expected: type) -> None:
    target.server.reply(text="partial", stream_error=(kind, message))
    event = target.final()
    assert isinstance(event.error, expected)
    assert message in event.message["errorMessage"]
    assert event.message["content"][0]["text"] == "partial"


def test_refused_finish_is_permanent(target: Target) -> None:
    raw = {"openai": "content_filter", "anthropic": "refusal"}[target.name]
    target.server.reply(text="I can't", stop=raw)
    event = target.final()
    assert isinstance(event.error, PermanentError)
    assert raw in event.message["errorMessage"]


def test_connection_refused_is_transient(target: Target) -> None:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    target.model.base_url = f"http://127.0.0.1:{port}"
    event = target.final()
    assert isinstance(event.error, TransientError)
    assert event.message["errorMessage"].startswith("Connection error")


def test_read_timeout_is_transient(target: Target) -> None:
    target.server.reply(text="late", headers_delay=1.0)
    started = time.monotonic()
    event = target.final(timeout=0.2)
    assert time.monotonic() - started < 0.9
    assert isinstance(event.error, TransientError)
    assert "timed out" in event.message["errorMessage"]


def test_abort_mid_stream_is_prompt(target: Target) -> None:
    target.server.reply(text="word " * 100, chunk_size=5, chunk_delay=0.1)
    signal = AbortSignal()
    started = time.monotonic()
    events = []
    for event in target.provider.stream(target.model, CONTEXT, target.options(signal=signal)):
        events.append(event)
        if event.type == "text_delta" and len(events) == 3:
            threading.Timer(0.05, signal.abort).start()
    assert time.monotonic() - started < 1.5  # the full stream would take 10 s
    final = events[-1]
    assert final.type == "error" and isinstance(final.error, AbortedError)
    assert final.message["stopReason"] == "aborted"
    assert final.message["errorMessage"] == "Request was aborted"
    assert final.message["content"][0]["text"].startswith("word")
    deadline = time.monotonic() + 2
    while not target.server.disconnects and time.monotonic() < deadline:
        time.sleep(0.05)
    assert target.server.disconnects == 1  # the connection was really closed


def test_abort_before_response_headers(target: Target) -> None:
    target.server.reply(text="never", headers_delay=2.0)
    signal = AbortSignal()
    threading.Timer(0.2, signal.abort).start()
    started = time.monotonic()
    event = target.final(signal=signal)
    assert time.monotonic() - started < 1.0
    assert event.message["stopReason"] == "aborted"


def test_already_aborted_sends_nothing(target: Target) -> None:
    signal = AbortSignal()
    signal.abort()
    event = target.final(signal=signal)
    assert isinstance(event.error, AbortedError)
    assert target.server.requests == []


def test_silent_overflow_is_seen_in_usage(target: Target) -> None:
    target.server.reply(text="fine", usage=Usage(input=1200, output=3))
    message = target.run()[-1].message
    assert message["stopReason"] == "stop"  # the call itself succeeded
    assert is_context_overflow(message, 1000)  # but the window (1000) was exceeded
    assert not is_context_overflow(message, 2000)
    assert isinstance(error_of(message, 1000), ContextOverflowError)


def test_complete_reports_errors(target: Target) -> None:
    target.server.error(503, "down")
    target.server.error(401, "invalid x-api-key")
    options = dataclasses.replace(target.options(), stream=False)
    message, error = drain(target.provider.stream(target.model, CONTEXT, options))
    assert message["stopReason"] == "error" and message["errorMessage"] == "503 down"
    assert error is not None and "503 down" in str(error)
    _, error = drain(target.provider.stream(target.model, CONTEXT, options))
    assert isinstance(error, PermanentError) and "401 invalid x-api-key" in str(error)
