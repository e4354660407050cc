"""What each hook may return: a check returns why an answer is wrong, or ``None``.

Used by :class:`tether.core.host.facade.Hooks`; a wrong answer is an error naming the plugin.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Check = Callable[[Any], "str | None"]


def _kind(value: Any) -> str:
    return type(value).__name__


def expect_none(value: Any) -> str | None:
    """Hooks that return nothing (they edit the event)."""
    if value is None:
        return None
    return f"returned {_kind(value)}; this hook returns nothing (edit the event instead)"


def expect(*types: type) -> Check:
    """``None`` or an instance of one of ``types``."""
    names = " or ".join(t.__name__ for t in types)

    def check(value: Any) -> str | None:
        if value is None or isinstance(value, types):
            return None
        return f"returned {_kind(value)}, expected {names} or None"

    return check


def _message_problem(value: Any) -> str | None:
    if isinstance(value, str):
        return None
    if not isinstance(value, dict):
        return f"returned a {_kind(value)} as a message, expected a dict or a str"
    return None


def check_before_agent_start(value: Any) -> str | None:
    """``None``, a message (dict or str) or a list of them."""
    if value is None:
        return None
    for message in value if isinstance(value, (list, tuple)) else [value]:
        problem = _message_problem(message)
        if problem is not None:
            return problem
    return None


def check_counts(expected: int) -> Check:
    """``None`` or one ``int`` per message."""

    def check(value: Any) -> str | None:
        if value is None:
            return None
        if not isinstance(value, (list, tuple)):
            return f"returned {_kind(value)}, expected a list of ints or None"
        if len(value) != expected:
            return f"returned {len(value)} counts for {expected} messages"
        for count in value:
            if isinstance(count, bool) or not isinstance(count, int):
                return f"returned a count of type {_kind(count)}, expected int"
        return None

    return check


def check_retry_decision(value: Any) -> str | None:
    """``None`` or a :class:`RetryDecision` whose ``delay_ms`` is a number of ms ≥ 0."""
    import math

    from tether.hookspecs.events import RetryDecision

    if value is None:
        return None
    if not isinstance(value, RetryDecision):
        return f"returned {_kind(value)}, expected RetryDecision or None"
    delay = value.delay_ms
    if value.retry and (
        isinstance(delay, bool)
        or not isinstance(delay, (int, float))
        or not math.isfinite(delay)
        or delay < 0
    ):
        return f"returned a RetryDecision with delay_ms={delay!r} (expected a number of ms ≥ 0)"
    return None


__all__ = [
    "check_before_agent_start",
    "check_counts",
    "check_retry_decision",
    "expect",
    "expect_none",
]
