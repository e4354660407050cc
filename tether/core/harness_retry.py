"""When and how long to wait before retrying a failed model call (spec §5.11, design §8.13).

The decision uses the typed error of the call (:class:`~tether.core.providers.ProviderError`,
decided by the provider from the HTTP status and exception type), never substrings of the
message: a permanent error whose text happens to contain ``500`` is not retried (pi's bug
§13.5 #37). Delays grow as ``baseDelayMs × 2^(attempt−1)``; a server's ``Retry-After`` is
honoured when it asks for longer. A requested delay above ``maxDelayMs`` is not waited out:
the retry gives up with the server's error (pi's ``maxRetryDelayMs``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tether.core.providers import ProviderError


@dataclass
class RetryDecision:
    """``retry``: wait ``delay_ms`` then continue; else ``reason`` says why not."""

    retry: bool
    attempt: int = 0
    max_attempts: int = 0
    delay_ms: int = 0
    reason: str = ""


def _setting(settings: Any, name: str, default: Any) -> Any:
    block = getattr(settings, "retry", None)
    return getattr(block, name, default) if block is not None else default


def is_retryable(error: ProviderError | None) -> bool:
    """A transient provider failure (429, 5xx, timeouts, dropped connections)."""
    return error is not None and bool(getattr(error, "retryable", False))


def decide_retry(error: ProviderError | None, attempt: int, settings: Any) -> RetryDecision:
    """Whether attempt number ``attempt`` (1-based) should happen after ``error``, and when."""
    if not is_retryable(error):
        return RetryDecision(False, attempt, reason="not a transient error")
    if not _setting(settings, "enabled", True):
        return RetryDecision(False, attempt, reason="retries are disabled (retry.enabled)")
    max_retries = int(_setting(settings, "max_retries", 3))
    if attempt > max_retries:
        return RetryDecision(False, attempt, max_retries, reason="retries exhausted")
    base = int(_setting(settings, "base_delay_ms", 2000))
    ceiling = int(_setting(settings, "max_delay_ms", 60000))
    delay = base * 2 ** (attempt - 1)
    retry_after = getattr(error, "retry_after", None)
    if retry_after is not None:
        asked = int(float(retry_after) * 1000)
        if asked > ceiling:
            return RetryDecision(
                False,
                attempt,
                max_retries,
                reason=f"server asked to wait {asked} ms, more than retry.maxDelayMs {ceiling}",
            )
        delay = max(delay, asked)
    return RetryDecision(True, attempt, max_retries, min(delay, ceiling))


__all__ = ["RetryDecision", "decide_retry", "is_retryable"]
