"""pi's after-turn threshold test, as ``tether session estimate`` reports it
(``checkCompaction``): the figures pi's oracle gives for a file. The harness's own trigger is
the kernel's (``tether.memory.context_tokens``; it also estimates a context whose usage predates
the latest compaction, where pi skips the test)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tether.builtin_plugins.memory.context_usage import estimate_context_tokens, latest_compaction
from tether.memory import calculate_context_tokens, should_compact
from tether.rules import timestamp_ms

if TYPE_CHECKING:
    from tether.hookspecs.events import Entry, Message


def _enabled(settings: Any) -> bool:
    if isinstance(settings, Mapping):
        return bool(settings.get("enabled", True))
    return bool(getattr(settings, "enabled", True))


def threshold_check(
    branch: Sequence[Entry],
    messages: Sequence[Message],
    counts: Sequence[int],
    context_window: float,
    settings: Any,
) -> dict[str, Any]:
    """pi's after-turn threshold test for the last assistant message of ``branch``.

    Returns ``{contextTokens, shouldCompact, reason}``. The size is that assistant's usage; for an
    ``error`` response it is the usage-anchored estimate of ``messages`` (the built context,
    ``counts`` their estimates). Responses or usage older than the latest compaction never
    trigger, nor do aborted responses.
    """
    last = None
    for entry in reversed(branch):
        message = entry.get("message") if entry.get("type") == "message" else None
        if isinstance(message, dict) and message.get("role") == "assistant":
            last = message
            break
    if last is None:
        return _no_check("no assistant message", lastAssistant=None)
    if not _enabled(settings):
        return _no_check("disabled")
    if last.get("stopReason") == "aborted":
        return _no_check("aborted")
    compaction = latest_compaction(branch)
    compacted_at = timestamp_ms(compaction.get("timestamp")) if compaction is not None else None
    if compaction is not None and _not_after(last.get("timestamp"), compacted_at):
        return _no_check("assistant older than latest compaction")
    if last.get("stopReason") == "error":
        estimate = estimate_context_tokens(messages, counts)
        if estimate["lastUsageIndex"] is None:
            return _no_check("no usage data")
        anchor = messages[estimate["lastUsageIndex"]]
        if compaction is not None and _not_after(anchor.get("timestamp"), compacted_at):
            return _no_check("usage older than latest compaction")
        tokens, reason = estimate["tokens"], "threshold (estimate, error message)"
    else:
        tokens, reason = calculate_context_tokens(last.get("usage") or {}), "threshold (last usage)"
    return {
        "contextTokens": tokens,
        "shouldCompact": should_compact(tokens, context_window, settings),
        "reason": reason,
    }


def _not_after(timestamp: Any, compacted_at: int | None) -> bool:
    """``timestamp <= compacted_at`` with JavaScript's NaN semantics (a missing side is false)."""
    return (
        isinstance(timestamp, (int, float))
        and compacted_at is not None
        and timestamp <= compacted_at
    )


def _no_check(reason: str, **extra: Any) -> dict[str, Any]:
    return {**extra, "contextTokens": None, "shouldCompact": False, "reason": reason}


__all__ = ["threshold_check"]
