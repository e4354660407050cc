"""Context size from provider usage plus estimates (pi's usage-anchored numbers).

The usage reported with the last valid assistant response approximates the whole prompt up to
it; only the messages after it are estimated. Per-message estimates come from the chosen
token counter (:func:`tether.core.choices.running.token_counter`), pi's chars/4 by default.
The figures the reports show (pi's ``estimateContextTokens``, ``getContextUsage``) are the
built-ins' (:mod:`tether.builtin_plugins.memory.context_usage`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

_USAGE_PARTS = ("input", "output", "cacheRead", "cacheWrite")


def js_truthy(value: Any) -> bool:
    """JavaScript truthiness for JSON values (an empty object or list is truthy)."""
    if value is None or value is False:
        return False
    if isinstance(value, (int, float)):
        return value != 0 and value == value
    if isinstance(value, str):
        return value != ""
    return True


def calculate_context_tokens(usage: Mapping[str, Any]) -> int:
    """``usage.totalTokens``, or the sum of its parts when that is 0 or missing. A number that
    is not finite (``1e999`` reads as inf; ``NaN``) counts as missing."""
    total = usage.get("totalTokens")
    if js_truthy(total) and not (isinstance(total, float) and math.isinf(total)):
        return total
    return sum(_number(usage.get(part)) for part in _USAGE_PARTS)


def _number(value: Any) -> Any:
    """A JSON number as is; anything else, and a non-finite float, as 0."""
    if isinstance(value, float):
        return value if math.isfinite(value) else 0
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def assistant_usage(message: Any) -> Mapping[str, Any] | None:
    """The usage of an assistant message that completed (not aborted/error), else ``None``."""
    if not isinstance(message, dict) or message.get("role") != "assistant":
        return None
    if message.get("stopReason") in ("aborted", "error"):
        return None
    usage = message.get("usage")
    return usage if js_truthy(usage) and isinstance(usage, dict) else None


def _setting(settings: Any, snake: str, camel: str, default: Any) -> Any:
    if isinstance(settings, Mapping):
        return settings.get(camel, settings.get(snake, default))
    return getattr(settings, snake, default)


def should_compact(context_tokens: float, context_window: float, settings: Any) -> bool:
    """``enabled and context_tokens > context_window - reserve`` (strictly greater).

    ``settings`` is a ``CompactionSettings``-like object (``enabled``, ``reserve_tokens``) or a
    mapping with pi's keys (``enabled``, ``reserveTokens``).
    """
    if not _setting(settings, "enabled", "enabled", True):
        return False
    reserve = _setting(settings, "reserve_tokens", "reserveTokens", 16384)
    return context_tokens > context_window - reserve


__all__ = [
    "assistant_usage",
    "calculate_context_tokens",
    "js_truthy",
    "should_compact",
]
