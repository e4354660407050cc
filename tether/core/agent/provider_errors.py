"""Typed provider errors and how failures are classified.

Retry decisions use the error *class*, decided from HTTP status and exception type,
never from substrings of the message. Overflow is the one case decided from provider
wording, because providers report it only in words. Import these names from
:mod:`tether.core.agent.providers`, which re-exports them.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Literal

from tether.core.host.errors import TetherError


class ProviderError(Exception):
    """A failed model call. ``status`` is the HTTP status when there was one; ``retry_after``
    is the server's ``Retry-After`` in seconds."""

    kind: Literal["overflow", "transient", "permanent", "aborted", "config"] = "permanent"

    def __init__(
        self, message: str, *, status: int | None = None, retry_after: float | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after

    @property
    def retryable(self) -> bool:
        return self.kind == "transient"


class ContextOverflowError(ProviderError):
    """The request did not fit the model's context window: compact and retry once."""

    kind = "overflow"


class TransientError(ProviderError):
    """Worth retrying: HTTP 408/409/429/5xx, connection errors, timeouts, streams cut short."""

    kind = "transient"


class PermanentError(ProviderError):
    """Retrying will not help: bad request, auth, unknown model, refusals."""

    kind = "permanent"


class AbortedError(ProviderError):
    """The caller aborted the call (``AbortSignal``)."""

    kind = "aborted"


class ProviderConfigError(ProviderError, TetherError):
    """No provider, model or key configured: the message says what to set, in one line.

    Also a :class:`TetherError`, so the CLI prints it as one ``tether: error:`` line.
    """

    kind = "config"


#: Provider wording of a context overflow (regexes, matched ignoring case), and wording that
#: looks like it but is not.
OVERFLOW_WORDING = (
    r"prompt is too long",
    r"request_too_large",
    r"input is too long for requested model",
    r"exceeds the context window",
    r"input token count.*exceeds the maximum",
    r"maximum prompt length is \d+",
    r"reduce the length of the messages",
    r"maximum context length is \d+ tokens",
    r"exceeds the limit of \d+",
    r"exceeds the available context size",
    r"greater than the context length",
    r"context window exceeds limit",
    r"exceeded model token limit",
    r"too large for model with \d+ maximum context length",
    r"model_context_window_exceeded",
    r"prompt too long; exceeded (?:max )?context length",
    r"context[_ ]length[_ ]exceeded",
    r"too many tokens",
    r"token limit exceeded",
    r"^4(?:00|13)\s*(?:status code)?\s*\(no body\)",
)
NON_OVERFLOW_WORDING = (
    r"^(Throttling error|Service unavailable):",
    r"rate limit",
    r"too many requests",
)


@functools.cache
def _compiled(wording: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    """``wording``'s patterns, compiled on first use (22 regexes: ~2 ms of every command's
    start-up otherwise)."""
    return tuple(re.compile(p, re.IGNORECASE) for p in wording)


TRANSIENT_STATUSES = frozenset({408, 409, 425, 429})


def is_overflow_wording(text: str) -> bool:
    """True if an error text is a provider's way of saying "context overflow"."""
    if any(p.search(text) for p in _compiled(NON_OVERFLOW_WORDING)):
        return False
    return any(p.search(text) for p in _compiled(OVERFLOW_WORDING))


def is_transient_status(status: int) -> bool:
    return status in TRANSIENT_STATUSES or status >= 500


def error_for_status(
    status: int, message: str, *, retry_after: float | None = None
) -> ProviderError:
    """The typed error of an HTTP error response (``message`` already includes the status)."""
    if is_transient_status(status):
        return TransientError(message, status=status, retry_after=retry_after)
    if status == 413 or is_overflow_wording(message):
        return ContextOverflowError(message, status=status)
    return PermanentError(message, status=status)


def is_context_overflow(message: dict[str, Any], context_window: int | None = None) -> bool:
    """pi's ``isContextOverflow``: error wording, or silent overflow visible in the usage."""
    stop = message.get("stopReason")
    if stop == "error" and is_overflow_wording(str(message.get("errorMessage") or "")):
        return True
    usage = message.get("usage") or {}
    used = int(usage.get("input") or 0) + int(usage.get("cacheRead") or 0)
    if context_window and stop == "stop" and used > context_window:
        return True
    return bool(
        context_window
        and stop == "length"
        and int(usage.get("output") or 0) == 0
        and used >= context_window * 0.99
    )


def error_of(message: dict[str, Any], context_window: int | None = None) -> ProviderError | None:
    """The typed error a finished assistant message stands for (``None`` for a good one).

    Prefer the ``error`` of the stream's last event; this rebuilds one from a stored message
    (e.g. read back from a session): a leading HTTP status of tether's own error texts
    (``"429 ..."``) decides first, then overflow by wording/usage, otherwise permanent.
    """
    text = str(message.get("errorMessage") or "")
    stop = message.get("stopReason")
    if stop == "aborted":
        return AbortedError(text or "Request was aborted")
    status = _STATUS_PREFIX.match(text) if stop == "error" else None
    if status and is_transient_status(int(status.group(1))):
        return TransientError(text, status=int(status.group(1)))
    if is_context_overflow(message, context_window):
        return ContextOverflowError(text or "context overflow (usage exceeds the window)")
    if stop == "error":
        return PermanentError(text or "provider error")
    return None


_STATUS_PREFIX = re.compile(r"^([1-5]\d\d) ")


__all__ = [
    "NON_OVERFLOW_WORDING",
    "OVERFLOW_WORDING",
    "TRANSIENT_STATUSES",
    "AbortedError",
    "ContextOverflowError",
    "PermanentError",
    "ProviderConfigError",
    "ProviderError",
    "TransientError",
    "error_for_status",
    "error_of",
    "is_context_overflow",
    "is_overflow_wording",
    "is_transient_status",
]
