"""What happens after a run ends, before the prompt returns (retry, compaction).

:class:`RunController` decides; it never acts. After each agent call it returns a
:class:`Step` — :class:`RetryIn` (wait, then call again), :class:`CompactNow`,
:class:`Continue` (queued messages or the retried turn), :class:`Stop` — with the events and
warnings to announce first and the message to drop from the agent's tail; the harness carries
the step out and asks again. In order, for the last assistant message of the run:

1. a failed call is retried when the retry policy says so (:meth:`RunController.retry_decision`
   asks the ``retry_decision`` hook and returns its :class:`RetryDecision`; the built-in
   policy retries transient errors with a backoff delay): the error message is dropped from
   the agent (it stays in the file), ``auto_retry_start`` is announced, the harness waits
   ``delay_ms`` and the agent continues; a later success announces
   ``auto_retry_end {success: true}``;
2. a context overflow (:class:`~tether.hookspecs.providers.ContextOverflowError`, or the
   ``context_overflow`` hook: pi's wording) is compacted and the same turn retried once; a
   second overflow gives up;
3. a context past ``window − reserve`` is compacted (no retry) — its size as the next call
   would send it, after the pruning stage (``prune_context``), so a compaction runs only when
   pruning is not enough;
4. messages still queued (steering/follow-up sent late, e.g. by a plugin) start another run.

Everything is synchronous: when the harness's prompt returns, retries and compactions are
done (pi resolves ``prompt()`` earlier). A run stopped because the session could
not be written raises that :class:`~tether.core.base.errors.SessionWriteError` instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tether.core.harness.compaction import (
    OVERFLOW_GAVE_UP,
    Count,
    compaction_end_event,
    over_threshold,
)
from tether.core.memory.compaction import CompactionOutcome
from tether.hookspecs.events import AgentEvent, Message, PrunedContext, RetryDecision
from tether.hookspecs.providers import (
    ContextOverflowError,
    Model,
    ProviderError,
)

MAX_CONTINUATIONS = 50  # a safety net against a plugin that queues a message after every run


@dataclass
class RunResult:
    """What one prompt did: the messages it produced (retries included) and how it ended."""

    messages: list[Message] = field(default_factory=list)
    handled: bool = False  # an ``input`` hook swallowed the prompt
    failure: BaseException | None = None  # what ended the run, if not the model (e.g. a hook)

    @property
    def final(self) -> Message | None:
        """The last assistant message of the run."""
        return next((m for m in reversed(self.messages) if m.get("role") == "assistant"), None)

    @property
    def text(self) -> str:
        final = self.final or {}
        return "".join(
            block.get("text", "")
            for block in final.get("content") or []
            if isinstance(block, dict) and block.get("type") == "text"
        )

    @property
    def stop_reason(self) -> str | None:
        return (self.final or {}).get("stopReason")

    @property
    def error(self) -> str | None:
        final = self.final or {}
        return (
            final.get("errorMessage") if final.get("stopReason") in ("error", "aborted") else None
        )


@dataclass(frozen=True)
class TurnState:
    """What the controller reads after an agent call (the harness builds it)."""

    aborted: Callable[[], bool]  # read live: a hook or a listener may abort meanwhile
    model: Model | None
    messages: list[Message]  # the agent's messages (read only here)
    queued: Callable[[], bool]  # steering/follow-up messages wait in the agent (live)
    settings: Any
    count: Count  # the chosen token counter
    # the pruning stage's preview of the next call (``prune_context``), if a plugin prunes
    pruned: Callable[[list[Message]], PrunedContext | None] | None = None


Notice = AgentEvent | str  # an event to emit, or a warning to give


@dataclass(frozen=True)
class Step:
    """A decision: announce ``notices`` in order, drop ``drop`` from the agent's tail, then act."""

    notices: tuple[Notice, ...] = ()
    drop: Message | None = None


@dataclass(frozen=True)
class Stop(Step):
    """The run is over."""


@dataclass(frozen=True)
class Continue(Step):
    """Call the model again (queued messages, or the turn retried on a compacted context)."""


@dataclass(frozen=True)
class RetryIn(Step):
    """Wait ``delay_ms`` (abortable), then continue; if the wait is aborted, ask
    :meth:`RunController.retry_cancelled`."""

    delay_ms: int = 0
    attempt: int = 0


@dataclass(frozen=True)
class CompactNow(Step):
    """Compact now (``reason``: ``overflow`` or ``threshold``), then ask
    :meth:`RunController.after_compaction`."""

    reason: str = "threshold"
    will_retry: bool = False


class RunController:
    """Retry, overflow recovery and threshold compaction decisions for one agent host."""

    def __init__(self, hooks: Any) -> None:
        self.hooks = hooks
        self.retry_attempt = 0
        self.overflow_attempted = False
        self.last_assistant: Message | None = None
        self.last_error: ProviderError | None = None
        self.failure: BaseException | None = None

    # -- fed by the harness's event listener -----------------------------------------------------

    def note_assistant(self, message: Message, error: ProviderError | None) -> None:
        self.last_assistant, self.last_error, self.failure = message, error, None
        if message.get("stopReason") != "error":
            self.overflow_attempted = False

    def note_failure(self, message: Message | None, error: BaseException) -> None:
        self.last_assistant, self.last_error, self.failure = message, None, error

    # -- decisions -------------------------------------------------------------------------------

    def start(self, *, new_prompt: bool) -> None:
        """A run starts (a new prompt resets the retry and overflow budgets)."""
        if new_prompt:
            self.overflow_attempted = False
            self.retry_attempt = 0
        self.forget()

    def forget(self) -> None:
        """Before each agent call: what the previous call ended with is no longer news."""
        self.last_assistant = self.last_error = self.failure = None

    def before_prompt(self, state: TurnState) -> CompactNow | None:
        """pi's check before a new prompt: compact first if the context is already too big
        (a resumed or imported session, a model with a smaller window)."""
        return CompactNow(reason="threshold") if self._over(state) else None

    def after_turn(self, state: TurnState) -> Step:
        """The next step after an agent call."""
        last, error = self.last_assistant, self.last_error
        if state.aborted() or last is None:
            return Stop()
        if self.failure is not None:  # an agent-level failure: nothing to retry or compact
            return Stop()
        if last.get("stopReason") == "aborted":
            return Stop()
        notices: list[Notice] = []
        retry = self._retry(last, error, state, notices)
        if retry is not None:
            return retry
        if state.aborted():
            return Stop(tuple(notices))
        overflow = self._overflow(last, error, state, notices)
        if overflow is not None:
            return overflow
        if self._over(state):
            return CompactNow(tuple(notices), reason="threshold")
        return (Continue if state.queued() and not state.aborted() else Stop)(tuple(notices))

    def after_compaction(
        self, step: CompactNow, outcome: CompactionOutcome | None, state: TurnState
    ) -> Step:
        """The next step after carrying out ``step``."""
        if step.reason != "overflow":
            return Continue() if state.queued() and not state.aborted() else Stop()
        if outcome is None or outcome.status != "compacted":
            return Stop()
        messages, drop = state.messages, None
        if messages and messages[-1].get("role") == "assistant":
            if messages[-1].get("stopReason") == "error":
                drop = messages[-1]  # the overflow error is part of the kept context: not resent
        kept = messages[:-1] if drop is not None else messages
        retry = bool(kept) and kept[-1].get("role") != "assistant"
        return (Continue if retry else Stop)(drop=drop)

    def retry_cancelled(self, step: RetryIn) -> Stop:
        """The wait of ``step`` was aborted."""
        self.retry_attempt = 0
        ended = {"success": False, "attempt": step.attempt, "final_error": "Retry cancelled"}
        return Stop((AgentEvent("auto_retry_end", ended),))

    def retry_decision(
        self, last: Message, error: ProviderError | None, settings: Any
    ) -> RetryDecision | None:
        """What the retry policy (the ``retry_decision`` hook) decides about the run's last
        message: ``None`` when it did not fail, else retry in ``delay_ms`` or give up (why)."""
        if last.get("stopReason") != "error":
            return None
        return self.hooks.retry_decision(
            error=error, attempt=self.retry_attempt + 1, settings=settings, message=last
        )

    def _retry(
        self, last: Message, error: ProviderError | None, state: TurnState, notices: list[Notice]
    ) -> Step | None:
        """:meth:`retry_decision` as a step (``None``: go on to the compaction checks)."""
        decision = self.retry_decision(last, error, state.settings)
        if decision is None:
            if self.retry_attempt:
                ended = {"success": True, "attempt": self.retry_attempt}
                notices.append(AgentEvent("auto_retry_end", ended))
                self.retry_attempt = 0
            return None
        if decision.warning:
            notices.append(decision.warning)
        if not decision.retry:
            if self.retry_attempt or decision.announce:
                ended = {
                    "success": False,
                    "attempt": self.retry_attempt,
                    "final_error": last.get("errorMessage"),
                    "reason": decision.reason,
                }
                notices.append(AgentEvent("auto_retry_end", ended))
            self.retry_attempt = 0
            return None
        self.retry_attempt = decision.attempt
        started = {
            "attempt": decision.attempt,
            "max_attempts": decision.max_attempts,
            "delay_ms": decision.delay_ms,
            "error_message": last.get("errorMessage"),
        }
        notices.append(AgentEvent("auto_retry_start", started))
        return RetryIn(tuple(notices), last, delay_ms=decision.delay_ms, attempt=decision.attempt)

    def _overflow(
        self, last: Message, error: ProviderError | None, state: TurnState, notices: list[Notice]
    ) -> Step | None:
        """``None``: not an overflow; else give up or compact and retry the turn."""
        model = state.model
        if last.get("stopReason") != "error" or model is None:
            return None
        same_model = last.get("provider") == model.provider and last.get("model") == model.id
        overflow = isinstance(error, ContextOverflowError) or (
            error is None
            and self.hooks.context_overflow(message=last, context_window=model.context_window)
        )
        if not (overflow and same_model):
            return None
        if self.overflow_attempted:
            gave_up = compaction_end_event("overflow", None, error_message=OVERFLOW_GAVE_UP)
            return Stop((*notices, gave_up, OVERFLOW_GAVE_UP))
        self.overflow_attempted = True
        return CompactNow(tuple(notices), last, reason="overflow", will_retry=True)

    def _over(self, state: TurnState) -> bool:
        if state.model is None:
            return False
        window = state.model.context_window
        pruned = state.pruned(state.messages) if state.pruned is not None else None
        return over_threshold(state.messages, state.count, window, state.settings, pruned)[0]


def drop_trailing(messages: list[Message], message: Message) -> None:
    """Remove ``message`` from the end of ``messages`` (if it is the last one)."""
    if messages and messages[-1] is message:
        messages.pop()


__all__ = [
    "MAX_CONTINUATIONS",
    "CompactNow",
    "Continue",
    "RetryIn",
    "RunController",
    "RunResult",
    "Step",
    "Stop",
    "TurnState",
    "drop_trailing",
]
