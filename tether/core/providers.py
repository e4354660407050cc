"""What an LLM provider is: models, the request context, stream events and typed errors.

Provider plugins (``register_providers``) implement :class:`Provider` over httpx. A provider
never raises for a failed call inside ``stream``: the final event carries an assistant message
with ``stopReason`` ``"error"`` or ``"aborted"`` and an ``errorMessage``, plus a typed
``error`` (:class:`ProviderError` subclass) that retry and overflow handling decide on.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from tether.core.abort import AbortSignal


@dataclass
class Model:
    """One entry of ``models.json``."""

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
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class LlmContext:
    """One request: system prompt, LLM messages (after ``convert_to_llm``) and tool schemas."""

    system_prompt: str
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] = field(default_factory=list)  # {name, description, parameters}


@dataclass
class StreamOptions:
    api_key: str | None = None
    max_tokens: int | None = None
    reasoning: str | None = None  # thinking level, None/"off" = no reasoning
    signal: AbortSignal | None = None
    timeout: float = 600.0
    stream: bool = True


@dataclass
class StreamEvent:
    """``type``: start | text_delta | thinking_delta | toolcall_delta | done | error.

    ``partial`` is the assistant message so far (pi's shape); ``message`` is set on
    done/error; ``error`` is the typed error on ``error``.
    """

    type: Literal["start", "text_delta", "thinking_delta", "toolcall_delta", "done", "error"]
    partial: dict[str, Any] | None = None
    delta: str = ""
    message: dict[str, Any] | None = None
    error: ProviderError | None = None


class ProviderError(Exception):
    """A failed model call. ``status`` is the HTTP status when there was one."""

    kind: Literal["overflow", "transient", "permanent", "aborted", "config"] = "permanent"

    def __init__(self, message: str, *, status: int | None = None,
                 retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


class ContextOverflowError(ProviderError):
    kind = "overflow"


class TransientError(ProviderError):
    kind = "transient"


class PermanentError(ProviderError):
    kind = "permanent"


class AbortedError(ProviderError):
    kind = "aborted"


class ProviderConfigError(ProviderError):
    """No provider, model or key configured: the message says what to set, in one line."""

    kind = "config"


class Provider(Protocol):
    api: str

    def stream(self, model: Model, context: LlmContext, options: StreamOptions) -> Iterator[StreamEvent]:
        """Yield events; the last one is ``done`` or ``error`` with the final message."""
        ...


__all__ = [
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
]
