"""Built-in plugin ``provider_errors``: how a failed model call is classified.

Retry decisions use the error *class* (:class:`tether.ProviderError` and its kinds), decided
from HTTP status and exception type, never from substrings of the message. Overflow is the one
case decided from provider wording, because providers report it only in words: the provider
plugins classify with :func:`error_for_status` and :func:`is_overflow_wording`, and this
plugin answers the kernel's ``context_overflow`` hook (pi's ``isContextOverflow``) for a
failed message whose provider gave no typed error.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from tether.hookspecs import hookimpl
from tether.providers import (
    AbortedError,
    ContextOverflowError,
    PermanentError,
    ProviderError,
    TransientError,
)

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
    status = _compiled(_STATUS_PREFIX)[0].match(text) if stop == "error" else None
    if status and is_transient_status(int(status.group(1))):
        return TransientError(text, status=int(status.group(1)))
    if is_context_overflow(message, context_window):
        return ContextOverflowError(text or "context overflow (usage exceeds the window)")
    if stop == "error":
        return PermanentError(text or "provider error")
    return None


_STATUS_PREFIX = (r"^([1-5]\d\d) ",)  # a leading HTTP status (no letters: the case is moot)


@hookimpl(trylast=True)
def context_overflow(message: dict[str, Any], context_window: int | None) -> bool:
    return is_context_overflow(message, context_window)


__all__ = [
    "NON_OVERFLOW_WORDING",
    "OVERFLOW_WORDING",
    "TRANSIENT_STATUSES",
    "context_overflow",
    "error_for_status",
    "error_of",
    "is_context_overflow",
    "is_overflow_wording",
    "is_transient_status",
]
