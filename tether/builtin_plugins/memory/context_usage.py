"""pi's context-size figures as the reports show them: ``tether session estimate``,
``tether session stats`` and RPC ``get_session_stats`` (pi's ``estimateContextTokens`` and
``getContextUsage``, the footer figure).

The usage reported with the last valid assistant response approximates the whole prompt up to
it; only the messages after it are estimated (``counts``: the chosen token counter's). The
harness's own compaction trigger is the kernel's (``tether.memory.context_tokens``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tether.rules import assistant_usage, calculate_context_tokens

Message = dict[str, Any]
Entry = dict[str, Any]


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
    "context_usage",
    "estimate_context_tokens",
    "get_last_assistant_usage",
    "latest_compaction",
]
