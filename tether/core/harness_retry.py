"""Asking the retry policy: the kernel decides nothing about retries itself.

:func:`ask_retry_policy` calls the ``retry_decision`` hook (firstresult; the built-in policy
is the ``retry_policy`` plugin, ``trylast``) and returns its :class:`RetryDecision`, naming the
plugin that answered. A plugin that raises or answers with anything but a ``RetryDecision``
is reported in the decision's ``warning`` and the call is not retried; with no answer at all
(the policy plugin blocked) the call is not retried either. The run controller
(:mod:`tether.core.harness_run`) carries the decision out: it announces it, waits, continues.
"""

from __future__ import annotations

import math
from typing import Any

from tether.core.hook_calls import call_implementation, describe_failure, implementations
from tether.hookspecs.events import Message, RetryDecision

NO_POLICY = "no plugin decided on retries (is 'retry_policy' disabled?)"


def ask_retry_policy(
    pm: Any, error: Any, attempt: int, settings: Any, message: Message
) -> RetryDecision:
    """The decision for retry number ``attempt`` (1-based) after ``error``; never raises for a
    plugin's fault."""
    kwargs = {"error": error, "attempt": attempt, "settings": settings, "message": message}
    for plugin, impl in implementations(pm, "retry_decision"):  # pluggy's call order
        try:
            answer = call_implementation(impl, kwargs)
        except Exception as exc:  # a plugin can fail in any way: give up, say who
            return _refused(attempt, describe_failure(pm, "retry_decision", exc))
        if answer is None:
            continue
        problem = _problem(answer)
        if problem:
            return _refused(attempt, f"plugin '{plugin}' returned {problem} from retry_decision")
        answer.attempt = attempt
        return answer
    return RetryDecision(False, attempt, reason=NO_POLICY)


def _problem(answer: Any) -> str:
    """What is wrong with a plugin's answer ("" when it is a usable decision)."""
    if not isinstance(answer, RetryDecision):
        return f"{type(answer).__name__}, not a RetryDecision"
    delay = answer.delay_ms
    if answer.retry and (
        isinstance(delay, bool)
        or not isinstance(delay, (int, float))
        or not math.isfinite(delay)
        or delay < 0
    ):
        return f"a RetryDecision with delay_ms={delay!r} (expected a number of ms ≥ 0)"
    return ""


def _refused(attempt: int, why: str) -> RetryDecision:
    return RetryDecision(False, attempt, reason=why, announce=True, warning=why)


__all__ = ["NO_POLICY", "RetryDecision", "ask_retry_policy"]
