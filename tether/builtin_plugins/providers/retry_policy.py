"""Built-in plugin ``retry_policy``: when and how long to wait before retrying a failed model
call, answering ``retry_decision`` (``trylast``: any plugin answering wins).

The decision uses the typed error of the call (``tether.hookspecs.providers.ProviderError``,
decided by the provider from the HTTP status and exception type), never substrings of the
message: a permanent error whose text happens to contain ``500`` is not retried (pi
retries it). Settings (``retry.*`` in settings.json): ``enabled``, ``maxRetries`` (3),
``baseDelayMs`` (2000), ``maxDelayMs`` (60000). Delays grow as ``baseDelayMs × 2^(attempt−1)``;
a server's ``Retry-After`` is honoured when it asks for longer. A requested delay above
``maxDelayMs`` is not waited out: the retry gives up with the server's error (pi's
``maxRetryDelayMs``) and a reason that says what was asked and which setting raises the limit.
A ``Retry-After`` that is not a finite number of seconds ≥ 0 (``1e999``, ``inf``, ``nan``,
``-5``) is treated as absent, with a warning.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from tether.hookspecs import hookimpl

if TYPE_CHECKING:
    from tether.hookspecs.events import RetryDecision


def _setting(settings: Any, name: str, default: Any) -> Any:
    block = getattr(settings, "retry", None)
    return getattr(block, name, default) if block is not None else default


def is_retryable(error: Any) -> bool:
    """A transient provider failure (429, 5xx, timeouts, dropped connections)."""
    return error is not None and bool(getattr(error, "retryable", False))


def decide_retry(error: Any, attempt: int, settings: Any) -> RetryDecision:
    """Whether attempt number ``attempt`` (1-based) should happen after ``error``, and when."""
    from tether.hookspecs.events import RetryDecision

    if not is_retryable(error):
        return RetryDecision(False, attempt, reason="not a transient error")
    if not _setting(settings, "enabled", True):
        return RetryDecision(False, attempt, reason="retries are disabled (retry.enabled)")
    max_retries = int(_setting(settings, "max_retries", 3))
    if attempt > max_retries:
        return RetryDecision(False, attempt, max_retries, reason="retries exhausted", announce=True)
    base = int(_setting(settings, "base_delay_ms", 2000))
    ceiling = int(_setting(settings, "max_delay_ms", 60000))
    delay = base * 2 ** (attempt - 1)
    retry_after, warning = _valid_retry_after(getattr(error, "retry_after", None))
    if retry_after is not None:
        asked = math.ceil(retry_after * 1000)
        if asked > ceiling:
            reason = (
                f"the provider asked to wait {_seconds(asked)}, more than the "
                f"{_seconds(ceiling)} that retry.maxDelayMs allows; raise retry.maxDelayMs "
                "in settings.json to wait longer"
            )
            return RetryDecision(
                False, attempt, max_retries, reason=reason, announce=True, warning=warning
            )
        delay = max(delay, asked)
    return RetryDecision(True, attempt, max_retries, min(delay, ceiling), warning=warning)


def _valid_retry_after(value: object) -> tuple[float | None, str]:
    """``(seconds, "")``, or ``(None, warning)`` for a value that is not finite and ≥ 0."""
    if value is None:
        return None, ""
    try:
        seconds = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        seconds = math.nan
    if math.isfinite(seconds) and seconds >= 0:
        return seconds, ""
    return None, f"ignored the provider's Retry-After {value!r}: not a finite number of seconds ≥ 0"


def _seconds(ms: int) -> str:
    value = ms / 1000
    return f"{value:g} s" if value < 1e6 else f"{value:.3g} s"


@hookimpl(trylast=True)
def retry_decision(error: Any, attempt: int, settings: Any) -> RetryDecision:
    return decide_retry(error, attempt, settings)


__all__ = ["decide_retry", "is_retryable", "retry_decision"]
