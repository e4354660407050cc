"""Adversarial loopback servers: the scripted OpenAI/Anthropic servers plus hostile replies.

- ``server.keepalives(seconds)`` — a 200 SSE stream that sends only keep-alives (SSE comment
  lines ``: ping``, blank lines and, for Anthropic, ``event: ping``) for ``seconds``, then ends;
  the client should give up long before (idle-data timeout);
- ``server.echo_key(status)`` — an error whose message echoes the request's ``Authorization``
  and ``x-api-key`` headers (some providers do), to check keys never reach files or output.

Everything else (``text``, ``error``, …) is the plain scripted server's.
"""

from __future__ import annotations

from typing import Any

from tests.servers.anthropic_server import AnthropicServer
from tests.servers.base import Reply, ScriptedServer, SseItem
from tests.servers.openai_server import OpenAIServer

COMMENT = "\0comment"  # an SSE item rendered as a comment line
BLANK = "\0blank"  # an SSE item rendered as an empty line
ECHO_KEY = "\0echo-key"  # error_message marker: echo the request's key headers
KEEPALIVE_INTERVAL = 0.05


class _Adversarial(ScriptedServer):
    ping_event: SseItem | None = None

    def keepalives(self, seconds: float, **fields: Any) -> Reply:
        """A stream of keep-alives only, one every :data:`KEEPALIVE_INTERVAL` seconds."""
        cycle: list[SseItem] = [(COMMENT, "ping"), (BLANK, None)]
        if self.ping_event is not None:
            cycle.append(self.ping_event)
        count = max(1, int(seconds / KEEPALIVE_INTERVAL))
        events = [cycle[i % len(cycle)] for i in range(count)]
        return self.reply(events=events, chunk_delay=KEEPALIVE_INTERVAL, **fields)

    def echo_key(self, status: int = 401, **fields: Any) -> Reply:
        """An error whose message quotes the key headers of the request it answers."""
        return self.error(status, ECHO_KEY, **fields)

    def render_sse(self, item: SseItem) -> bytes:
        name, data = item
        if name == COMMENT:
            return f": {data}\n".encode()
        if name == BLANK:
            return b"\n"
        return super().render_sse(item)

    def error_body(self, reply: Reply) -> Any:
        if reply.error_message != ECHO_KEY:
            return super().error_body(reply)
        headers = self.requests[-1].headers
        sent = headers.get("authorization") or headers.get("x-api-key") or "(none)"
        echoed = Reply(
            status=reply.status,
            error_message=f"Incorrect API key provided: {sent}. You can find your key at ...",
            error_type=reply.error_type,
        )
        return super().error_body(echoed)


class AdversarialOpenAIServer(_Adversarial, OpenAIServer):
    """The OpenAI chat-completions test server with keep-alive-only streams and key echoes."""


class AdversarialAnthropicServer(_Adversarial, AnthropicServer):
    """The Anthropic Messages test server with keep-alive-only streams and key echoes."""

    ping_event = ("ping", {"type": "ping"})


__all__ = ["AdversarialAnthropicServer", "AdversarialOpenAIServer"]
