"""Context size from provider usage plus estimates (pi's usage-anchored numbers).

The usage reported with the last valid assistant response approximates the whole prompt up to
it; only the messages after it are estimated. Per-message estimates come from the chosen
token counter (:func:`tether.core.choices.running.token_counter`), pi's chars/4 by default.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

Message = dict[str, Any]
Entry = dict[str, Any]

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


def get_last_assistant_usage(entries: Sequence[Entry]) -> Mapping[str, Any] | None:
    """Scanning from the end, the usage of the first ``message`` entry with a valid usage."""
    for entry in reversed(entries):
        if entry.get("type") == "message":
            usage = assistant_usage(entry.get("message"))
            if usage is not None:
                return usage
    return None


def estimate_context_tokens(messages: Sequence[Message], counts: Sequence[int]) -> dict[str, Any]:
    """pi's ``estimateContextTokens``; ``counts[i]`` is the token estimate of ``messages[i]``.

    Returns ``{tokens, usageTokens, trailingTokens, lastUsageIndex}``: the last valid usage plus
    the estimates of the messages after it (all estimates when no message has usage).
    """
    for index in range(len(messages) - 1, -1, -1):
        usage = assistant_usage(messages[index])
        if usage is not None:
            usage_tokens = calculate_context_tokens(usage)
            trailing = sum(counts[index + 1 :])
            return {
                "tokens": usage_tokens + trailing,
                "usageTokens": usage_tokens,
                "trailingTokens": trailing,
                "lastUsageIndex": index,
            }
    estimated = sum(counts)
    return {
        "tokens": estimated,
        "usageTokens": 0,
        "trailingTokens": estimated,
        "lastUsageIndex": None,
    }


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


def latest_compaction(entries: Sequence[Entry]) -> Entry | None:
    """The last ``compaction`` entry of ``entries`` (a branch), or ``None``."""
    for entry in reversed(entries):
        if entry.get("type") == "compaction":
            return entry
    return None


def context_usage(
    branch: Sequence[Entry],
    messages: Sequence[Message],
    counts: Sequence[int],
    context_window: float,
) -> dict[str, Any] | None:
    """pi's ``getContextUsage`` (the footer figure): ``{tokens, contextWindow, percent}``.

    ``None`` without a positive window. After a compaction the size is unknown (``tokens`` and
    ``percent`` ``None``) until an assistant response after it reports a non-zero usage.
    """
    if not context_window or context_window <= 0:
        return None
    compaction = latest_compaction(branch)
    if compaction is not None:
        known = False
        for entry in reversed(branch):
            if entry is compaction:
                break
            message = entry.get("message") if entry.get("type") == "message" else None
            if isinstance(message, dict) and message.get("role") == "assistant":
                if message.get("stopReason") not in ("aborted", "error"):
                    known = calculate_context_tokens(message.get("usage") or {}) > 0
                    break
        if not known:
            return {"tokens": None, "contextWindow": context_window, "percent": None}
    tokens = estimate_context_tokens(messages, counts)["tokens"]
    return {
        "tokens": tokens,
        "contextWindow": context_window,
        "percent": tokens / context_window * 100,
    }


__all__ = [
    "assistant_usage",
    "calculate_context_tokens",
    "context_usage",
    "estimate_context_tokens",
    "get_last_assistant_usage",
    "js_truthy",
    "latest_compaction",
    "should_compact",
]
