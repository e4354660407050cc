"""What an LLM provider is: models, the request context, stream events and typed errors.

Provider plugins (``register_providers``) implement :class:`Provider` over httpx. A provider
never raises for a failed call inside ``stream``: the final event carries an assistant message
with ``stopReason`` ``"error"`` or ``"aborted"`` and an ``errorMessage``, plus a typed
``error`` (:class:`ProviderError` subclass) that retry and overflow handling decide on.

The final assistant message has pi's shape::

    {"role": "assistant", "content": [text|thinking|toolCall blocks], "api", "provider",
     "model", "responseId"?, "responseModel"?, "usage": {"input", "output", "cacheRead",
     "cacheWrite", "totalTokens", "cost": {"input", "output", "cacheRead", "cacheWrite",
     "total"}}, "stopReason": "stop"|"length"|"toolUse"|"error"|"aborted",
     "errorMessage"?, "timestamp": <ms>}

The error classes live in :mod:`tether.core.base.errors` and are re-exported here; how a
failure is classified (status, provider wording) is the ``provider_errors`` built-in's.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from tether.core.base.errors import (
    AbortedError,
    ContextOverflowError,
    PermanentError,
    ProviderConfigError,
    ProviderError,
    TransientError,
)
from tether.hookspecs.abort import AbortSignal

StopReason = Literal["stop", "length", "toolUse", "error", "aborted"]


@dataclass
class Model:
    """One model of a provider (the built-in ``model_registry`` plugin reads them from
    ``models.json``)."""

    provider: str  # the provider's name in models.json, e.g. "openai", "ollama"
    id: str  # the model id sent to the API
    api: str  # the adapter: "openai-completions", "anthropic-messages", "faux"
    base_url: str = ""
    api_key_env: str | None = None
    context_window: int = 128000
    max_tokens: int = 16384
    reasoning: bool = False
    input: list[str] = field(default_factory=lambda: ["text"])
    headers: dict[str, str] = field(default_factory=dict)
    name: str = ""
    extra: dict[str, Any] = field(default_factory=dict)  # unknown keys of the model entry
    cost: dict[str, float] = field(default_factory=dict)  # $ per million: input, output, cache*
    api_key: str | None = None  # a literal key from models.json (apiKey); env wins if set

    @property
    def ref(self) -> str:
        """``"provider/id"``, the form ``--model`` and settings accept."""
        return f"{self.provider}/{self.id}"


@dataclass
class LlmContext:
    """One request: system prompt, LLM messages (after ``convert_to_llm``) and tool schemas."""

    system_prompt: str
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] = field(default_factory=list)  # {name, description, parameters}


#: Seconds a streamed call may go without data before it fails (provider.idleTimeoutMs). As
#: long as the HTTP read timeout: reasoning models may think silently (or behind keep-alives,
#: e.g. OpenRouter's) for minutes.
IDLE_TIMEOUT = 300.0


@dataclass
class StreamOptions:
    """Per-call options. ``client`` is the ``httpx.Client`` to use (the registry fills it from
    the ``http_client`` hook); ``timeout`` (seconds) overrides the client's read timeout;
    ``idle_timeout`` (seconds, ``0``: none, ``None``: :data:`IDLE_TIMEOUT`) fails a call that
    gets no data for that long — keep-alives do not count — as transient."""

    api_key: str | None = None
    max_tokens: int | None = None
    reasoning: str | None = None  # thinking level, None/"off" = no reasoning
    signal: AbortSignal | None = None
    timeout: float | None = None
    stream: bool = True
    headers: dict[str, str] = field(default_factory=dict)
    client: Any = None
    temperature: float | None = None
    idle_timeout: float | None = None


@dataclass
class StreamEvent:
    """``type``: start | text_delta | thinking_delta | toolcall_delta | done | error.

    ``partial`` is the live assistant message so far (pi's shape; copy it to keep it);
    ``message`` is set on done/error; ``error`` is the typed error on ``error``;
    ``content_index`` is the index of the content block a delta belongs to.
    """

    type: Literal["start", "text_delta", "thinking_delta", "toolcall_delta", "done", "error"]
    partial: dict[str, Any] | None = None
    delta: str = ""
    message: dict[str, Any] | None = None
    error: ProviderError | None = None
    content_index: int = -1


class Provider(Protocol):
    """An API adapter. ``options.stream`` false asks ``stream`` for one non-streaming call
    (summaries); an optional ``request_body(model, context, options) -> dict`` (the JSON body
    ``stream`` would send, unsent) is used by ``tether session context --request``."""

    api: str

    def stream(
        self, model: Model, context: LlmContext, options: StreamOptions
    ) -> Iterator[StreamEvent]:
        """Yield events; the last one is ``done`` or ``error`` with the final message."""
        ...


def drain(events: Iterator[StreamEvent]) -> tuple[dict[str, Any], ProviderError | None]:
    """Consume a stream; return (final message, typed error or None)."""
    final: StreamEvent | None = None
    for event in events:
        if event.type in ("done", "error"):
            final = event
    if final is None or final.message is None:
        raise RuntimeError("provider stream ended without a done/error event")
    return final.message, final.error


# The empty usage of a message (the adapters' helpers that shape a whole assistant message:
# tether.builtin_plugins.providers.messages)


def empty_usage() -> dict[str, Any]:
    return {
        "input": 0,
        "output": 0,
        "cacheRead": 0,
        "cacheWrite": 0,
        "totalTokens": 0,
        "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0},
    }


__all__ = [
    "IDLE_TIMEOUT",
    "AbortedError",
    "ContextOverflowError",
    "LlmContext",
    "Model",
    "PermanentError",
    "Provider",
    "ProviderConfigError",
    "ProviderError",
    "StreamEvent",
    "StreamOptions",
    "TransientError",
    "drain",
    "empty_usage",
]
