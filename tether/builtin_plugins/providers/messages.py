"""The assistant message as pi shapes it, for provider adapters: an empty one in pi's key
order, usage totals and cost, a failed call's final message, and a call run to the end.

Helpers of the built-in providers (and of any adapter that wants them); the kernel's contract
of a provider is :mod:`tether.hookspecs.providers`.
"""

from __future__ import annotations

from typing import Any

from tether.providers import (
    AbortedError,
    Model,
    ProviderError,
    empty_usage,
    now_ms,
)


def new_assistant_message(model: Model) -> dict[str, Any]:
    """An empty assistant message in pi's key order, stopReason ``stop``."""
    return {
        "role": "assistant",
        "content": [],
        "api": model.api,
        "provider": model.provider,
        "model": model.id,
        "usage": empty_usage(),
        "stopReason": "stop",
        "timestamp": now_ms(),
    }


def finish_usage(model: Model, usage: dict[str, Any]) -> dict[str, Any]:
    """Set ``totalTokens`` and ``cost`` (from ``model.cost``, $ per million tokens)."""
    keys = ("input", "output", "cacheRead", "cacheWrite")
    usage["totalTokens"] = sum(int(usage.get(k) or 0) for k in keys)
    cost = {k: float(model.cost.get(k, 0) or 0) * int(usage.get(k) or 0) / 1e6 for k in keys}
    if not any(cost.values()):
        cost = dict.fromkeys(keys, 0)
    cost["total"] = sum(cost.values())
    usage["cost"] = cost
    return usage


MESSAGE_KEY_ORDER = (
    "role",
    "content",
    "api",
    "provider",
    "model",
    "responseModel",
    "responseId",
    "diagnostics",
    "usage",
    "stopReason",
    "errorMessage",
    "timestamp",
)


def order_message(message: dict[str, Any]) -> dict[str, Any]:
    """Put an assistant message's keys in pi's order, in place (other keys go last)."""
    items = list(message.items())
    rank = {key: i for i, key in enumerate(MESSAGE_KEY_ORDER)}
    message.clear()
    message.update(sorted(items, key=lambda kv: rank.get(kv[0], len(rank))))
    return message


def fail_message(message: dict[str, Any], error: ProviderError) -> dict[str, Any]:
    """Turn ``message`` into the final message of a failed call (error or aborted)."""
    message["stopReason"] = "aborted" if isinstance(error, AbortedError) else "error"
    message["errorMessage"] = str(error) or type(error).__name__
    return order_message(message)


__all__ = [
    "MESSAGE_KEY_ORDER",
    "fail_message",
    "finish_usage",
    "new_assistant_message",
    "order_message",
]
