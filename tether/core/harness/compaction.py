"""Automatic compaction for the harness: when the context is too big, and how it is run.

The size of the context is pi's usage-anchored estimate: the usage the provider
reported with the newest assistant message, plus the chosen token counter's estimate of the messages
after it. Only those trailing messages are counted, so a check costs the same at 100 or 100k
entries. Unlike pi, a context whose newest usage predates the latest compaction (or has none
at all, e.g. a provider without usage) is estimated in full instead of skipped. When a plugin
prunes (``prune_context``), the size is the pruned context's: what the next call would send.

:class:`CompactionRunner` runs one compaction through :func:`tether.core.memory.compaction.compact`
and announces it with ``compaction_start`` / ``compaction_end`` events (pi's fields:
``reason``, ``result``, ``aborted``, ``will_retry``, ``error_message``; tether adds
``summarizer`` and ``gate``, the summary gate's report).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from tether.core.context.tokens import assistant_usage, calculate_context_tokens, should_compact
from tether.core.memory.compaction import CompactionOutcome, compact, compaction_settings
from tether.hookspecs.events import AgentEvent, Message, PrunedContext

Count = Callable[[list[Message]], Sequence[int]]

OVERFLOW_GAVE_UP = (
    "Context overflow recovery failed after one compact-and-retry attempt. Try reducing "
    "context or switching to a larger-context model."
)


def compaction_time(messages: Sequence[Message]) -> int | None:
    """The timestamp (ms) of the compaction the context starts from, if any."""
    if messages and messages[0].get("role") == "compactionSummary":
        stamp = messages[0].get("timestamp")
        return int(stamp) if isinstance(stamp, (int, float)) else None
    return None


def context_tokens(
    messages: Sequence[Message], count: Count, pruned: PrunedContext | None = None
) -> int:
    """Usage of the newest assistant with usage + estimates of the messages after it; with
    ``pruned`` (the pruning stage's preview), less what the next call leaves out: ``freed``
    (what the last call still sent) from a usage, ``saved`` (all) from a full estimate."""
    freed, saved = (pruned.freed, pruned.saved) if pruned is not None else (0, 0)
    compacted_at = compaction_time(messages)
    for index in range(len(messages) - 1, -1, -1):
        usage = assistant_usage(messages[index])
        if usage is None:
            continue
        total = calculate_context_tokens(usage)
        if not total:
            continue
        stamp = messages[index].get("timestamp")
        if compacted_at is not None and isinstance(stamp, (int, float)) and stamp <= compacted_at:
            break  # usage of the context before the compaction: not this context's size
        trailing = list(messages[index + 1 :])
        return max(0, int(total) + (sum(count(trailing)) if trailing else 0) - freed)
    return max(0, sum(count(list(messages))) - saved) if messages else 0


def over_threshold(
    messages: Sequence[Message],
    count: Count,
    context_window: int,
    settings: Any,
    pruned: PrunedContext | None = None,
) -> tuple[bool, int]:
    """``(should compact, tokens)`` for the agent's messages against the model's window;
    ``pruned``: the size is the pruned context's (see :func:`context_tokens`)."""
    block = compaction_settings(settings)
    if not block.enabled or not messages:
        return False, 0
    tokens = context_tokens(messages, count, pruned)
    return should_compact(tokens, context_window, block), tokens


class CompactionHost(Protocol):
    """What a :class:`CompactionRunner` needs of its agent host (the harness is one)."""

    view: Any
    hooks: Any
    settings: Any
    op_signal: Any

    def emit(self, event: AgentEvent) -> None: ...

    def warn(self, message: str) -> None: ...

    def progress(self, line: str) -> None: ...

    def reload_messages(self) -> None: ...


class CompactionRunner:
    """Runs compactions for one agent host and reports them as events."""

    def __init__(self, host: CompactionHost) -> None:
        self.host = host

    def run(
        self,
        reason: str,
        *,
        will_retry: bool = False,
        custom_instructions: str | None = None,
    ) -> CompactionOutcome | None:
        """Compact the current branch; ``None`` when it failed (the failure is reported)."""
        h = self.host
        h.emit(AgentEvent("compaction_start", {"reason": reason}))
        try:
            outcome = compact(
                h.view,
                h.hooks,
                h.settings,
                custom_instructions=custom_instructions,
                reason=reason,  # type: ignore[arg-type]
                progress=h.progress,
                signal=h.op_signal,
            )
        except Exception as exc:  # a strategy, summarizer or provider failed: session unchanged
            aborted = h.op_signal.aborted
            prefix = (
                "Context overflow recovery failed"
                if reason == "overflow"
                else ("Auto-compaction failed" if reason == "threshold" else "Compaction failed")
            )
            message = "Compaction cancelled" if aborted else f"{prefix}: {exc}"
            h.emit(compaction_end_event(reason, None, aborted=aborted, error_message=message))
            if reason == "manual":
                raise
            h.warn(message)
            return None
        for warning in outcome.warnings:
            h.warn(warning)
        if outcome.status != "compacted":
            aborted = outcome.status == "cancelled"
            h.emit(compaction_end_event(reason, None, aborted=aborted, message=outcome.reason))
            return outcome
        h.reload_messages()
        h.emit(
            compaction_end_event(
                reason,
                outcome.entry,
                will_retry=will_retry,
                summarizer=outcome.summarizer,
                gate=outcome.gate,
            )
        )
        return outcome


def compaction_end_event(
    reason: str,
    entry: dict[str, Any] | None,
    *,
    aborted: bool = False,
    will_retry: bool = False,
    error_message: str | None = None,
    message: str | None = None,
    summarizer: str | None = None,
    gate: dict[str, Any] | None = None,
) -> AgentEvent:
    data: dict[str, Any] = {
        "reason": reason,
        "result": entry,
        "aborted": aborted,
        "will_retry": will_retry,
    }
    if error_message:
        data["error_message"] = error_message
    if message:
        data["message"] = message
    if summarizer:
        data["summarizer"] = summarizer
    if gate is not None:
        data["gate"] = gate  # the summary gate's report, as details.gate of the entry
    return AgentEvent("compaction_end", data)


__all__ = [
    "OVERFLOW_GAVE_UP",
    "CompactionHost",
    "CompactionRunner",
    "compaction_end_event",
    "compaction_time",
    "context_tokens",
    "over_threshold",
]
