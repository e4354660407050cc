"""What happens after a run ends, before the prompt returns (retry, compaction).

In order, for the last assistant message of the run:

1. a failed call is retried when the retry policy says so (:meth:`RunController.retry_decision`
   asks the ``retry_decision`` hook and returns its :class:`RetryDecision`; the built-in
   policy retries transient errors with a backoff delay): the error message is dropped from
   the agent (it stays in the file), ``auto_retry_start`` is announced, the controller waits
   ``delay_ms`` and the agent continues; a later success announces
   ``auto_retry_end {success: true}``;
2. a context overflow (:class:`~tether.core.agent.providers.ContextOverflowError`, or pi's wording)
   is compacted and the same turn retried once; a second overflow gives up;
3. a context past ``window − reserve`` is compacted (no retry);
4. messages still queued (steering/follow-up sent late, e.g. by a plugin) start another run.

Everything is synchronous: when :meth:`RunController.run` returns, retries and compactions
are done (pi resolves ``prompt()`` earlier). A run stopped because the session
could not be written raises that :class:`~tether.core.host.errors.SessionWriteError` instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tether.core.agent.providers import ContextOverflowError, ProviderError, is_context_overflow
from tether.core.harness.compaction import OVERFLOW_GAVE_UP, compaction_end_event, over_threshold
from tether.core.host.errors import SessionWriteError
from tether.core.memory.choice_calls import token_counter
from tether.hookspecs.events import AgentEvent, Message, RetryDecision

if TYPE_CHECKING:
    from tether.core.harness.harness import Harness

MAX_CONTINUATIONS = 50  # a safety net against a plugin that queues a message after every run


@dataclass
class RunResult:
    """What one prompt did: the messages it produced (retries included) and how it ended."""

    messages: list[Message] = field(default_factory=list)
    handled: bool = False  # an ``input`` hook swallowed the prompt

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


class RunController:
    """Retry, overflow recovery and threshold compaction for one harness."""

    def __init__(self, harness: Harness) -> None:
        self.harness = harness
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

    # -- the run ---------------------------------------------------------------------------------

    def run(self, first: Callable[[], list[Message]], *, new_prompt: bool) -> list[Message]:
        """Run ``first`` (an agent call), then retries/compactions/queued messages."""
        if new_prompt:
            self.overflow_attempted = False
            self.retry_attempt = 0
        self.last_assistant = self.last_error = self.failure = None
        produced = list(first())
        agent = self.harness.agent
        for _ in range(MAX_CONTINUATIONS):
            if not self._should_continue():
                break
            self.last_assistant = self.last_error = self.failure = None
            produced.extend(agent.continue_())
        if isinstance(self.failure, SessionWriteError):
            raise self.failure  # a storage error, not the model's: the caller reports it
        return produced

    def _count(self, messages: list[Message]) -> list[int]:
        h = self.harness
        model = h.view.model
        return token_counter(h.hooks.pm, h.settings, model=model)(messages)

    def pre_prompt_check(self) -> None:
        """pi's check before a new prompt: compact first if the context is already too big
        (a resumed or imported session, a model with a smaller window)."""
        h = self.harness
        if h.model is None:
            return
        over, _ = over_threshold(
            h.agent.state.messages, self._count, h.model.context_window, h.settings
        )
        if over:
            h.compactor.run("threshold")

    def _should_continue(self) -> bool:
        h = self.harness
        last, error = self.last_assistant, self.last_error
        if h.op_signal.aborted or last is None:
            return False
        if self.failure is not None:  # an agent-level failure: nothing to retry or compact
            return False
        if last.get("stopReason") == "aborted":
            return False
        if self._retry(last, error):
            return True
        if h.op_signal.aborted:
            return False
        overflow = self._overflow(last, error)
        if overflow is not None:
            return overflow
        self._threshold()
        return h.agent.has_queued_messages() and not h.op_signal.aborted

    def retry_decision(self, last: Message, error: ProviderError | None) -> RetryDecision | None:
        """What the retry policy (the ``retry_decision`` hook) decides about the run's last
        message: ``None`` when it did not fail, else retry in ``delay_ms`` or give up (why)."""
        if last.get("stopReason") != "error":
            return None
        h = self.harness
        return h.hooks.retry_decision(
            error=error, attempt=self.retry_attempt + 1, settings=h.settings, message=last
        )

    def _retry(self, last: Message, error: ProviderError | None) -> bool:
        """Carry out :meth:`retry_decision`: announce, wait, continue (``True``) or stop."""
        h = self.harness
        decision = self.retry_decision(last, error)
        if decision is None:
            if self.retry_attempt:
                h.emit(
                    AgentEvent("auto_retry_end", {"success": True, "attempt": self.retry_attempt})
                )
                self.retry_attempt = 0
            return False
        if decision.warning:
            h.warn(decision.warning)
        if not decision.retry:
            if self.retry_attempt or decision.announce:
                h.emit(
                    AgentEvent(
                        "auto_retry_end",
                        {
                            "success": False,
                            "attempt": self.retry_attempt,
                            "final_error": last.get("errorMessage"),
                            "reason": decision.reason,
                        },
                    )
                )
            self.retry_attempt = 0
            return False
        self.retry_attempt = decision.attempt
        h.emit(
            AgentEvent(
                "auto_retry_start",
                {
                    "attempt": decision.attempt,
                    "max_attempts": decision.max_attempts,
                    "delay_ms": decision.delay_ms,
                    "error_message": last.get("errorMessage"),
                },
            )
        )
        _drop_trailing(h.agent.state.messages, last)
        if h.op_signal.wait(decision.delay_ms / 1000):
            h.emit(
                AgentEvent(
                    "auto_retry_end",
                    {
                        "success": False,
                        "attempt": decision.attempt,
                        "final_error": "Retry cancelled",
                    },
                )
            )
            self.retry_attempt = 0
            return False
        return True

    def _overflow(self, last: Message, error: ProviderError | None) -> bool | None:
        """``None``: not an overflow; else whether to continue (retry on the compacted context)."""
        h = self.harness
        model = h.model
        if last.get("stopReason") != "error" or model is None:
            return None
        same_model = last.get("provider") == model.provider and last.get("model") == model.id
        overflow = isinstance(error, ContextOverflowError) or (
            error is None and is_context_overflow(last, model.context_window)
        )
        if not (overflow and same_model):
            return None
        if self.overflow_attempted:
            h.emit(compaction_end_event("overflow", None, error_message=OVERFLOW_GAVE_UP))
            h.warn(OVERFLOW_GAVE_UP)
            return False
        self.overflow_attempted = True
        _drop_trailing(h.agent.state.messages, last)
        outcome = h.compactor.run("overflow", will_retry=True)
        if outcome is None or outcome.status != "compacted":
            return False
        messages = h.agent.state.messages
        if messages and messages[-1].get("role") == "assistant":
            if messages[-1].get("stopReason") == "error":
                messages.pop()  # the overflow error is part of the kept context: not resent
        return bool(messages) and messages[-1].get("role") != "assistant"

    def _threshold(self) -> None:
        h = self.harness
        if h.model is None:
            return
        over, _ = over_threshold(
            h.agent.state.messages, self._count, h.model.context_window, h.settings
        )
        if over:
            h.compactor.run("threshold")


def _drop_trailing(messages: list[Message], message: Message) -> None:
    if messages and messages[-1] is message:
        messages.pop()


__all__ = ["MAX_CONTINUATIONS", "RunController", "RunResult"]
