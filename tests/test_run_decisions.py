"""The run controller decides and never acts: after each agent call it returns a step
(retry in N ms, compact now, continue, stop) with what to announce; the harness carries it out.

These drive :class:`RunController` alone — the real hooks with the built-in retry policy, real
settings — with no harness at all; the end-to-end behaviour is in test_harness*.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tether.core.base.settings import load_settings
from tether.core.harness.compaction import OVERFLOW_GAVE_UP
from tether.core.harness.run import (
    CompactNow,
    Continue,
    RetryIn,
    RunController,
    Stop,
    TurnState,
)
from tether.core.hooks.facade import Hooks
from tether.core.host.manager import create_plugin_manager
from tether.core.memory.compaction import CompactionOutcome
from tether.hookspecs.providers import ContextOverflowError, Model, TransientError

MODEL = Model(provider="faux", id="faux-1", api="faux", context_window=200_000)
USER = {"role": "user", "content": "hi", "timestamp": 1}


def _failed(text: str) -> dict:
    return {
        "role": "assistant",
        "content": [],
        "stopReason": "error",
        "errorMessage": text,
        "provider": "faux",
        "model": "faux-1",
    }


OK = {"role": "assistant", "content": [{"type": "text", "text": "ok"}], "stopReason": "stop"}


@pytest.fixture
def settings(tmp_path: Path):
    return load_settings(tmp_path, home=tmp_path)


@pytest.fixture
def runs() -> RunController:
    controller = RunController(Hooks(create_plugin_manager(environ={})))
    controller.start(new_prompt=True)
    return controller


def _state(settings, messages, *, queued=False, aborted=False, tokens=1) -> TurnState:
    return TurnState(
        aborted=lambda: aborted,
        model=MODEL,
        messages=messages,
        queued=lambda: queued,
        settings=settings,
        count=lambda ms: [tokens for _ in ms],
    )


def test_a_transient_failure_is_a_retry_in_n_ms(runs: RunController, settings) -> None:
    last = _failed("503 busy")
    messages = [USER, last]
    runs.note_assistant(last, TransientError("busy", status=503))
    step = runs.after_turn(_state(settings, messages))
    assert isinstance(step, RetryIn) and step.attempt == 1 and step.delay_ms > 0
    assert step.drop is last and messages == [USER, last]  # decided, nothing done
    [start] = step.notices
    assert start.type == "auto_retry_start" and start.data["delay_ms"] == step.delay_ms
    cancelled = runs.retry_cancelled(step)
    assert isinstance(cancelled, Stop) and runs.retry_attempt == 0
    assert cancelled.notices[0].data["final_error"] == "Retry cancelled"


def test_success_after_a_retry_announces_the_end(runs: RunController, settings) -> None:
    runs.note_assistant(_failed("503"), TransientError("busy", status=503))
    runs.after_turn(_state(settings, [USER]))
    runs.forget()
    runs.note_assistant(OK, None)
    step = runs.after_turn(_state(settings, [USER, OK]))
    assert isinstance(step, Stop)
    [end] = step.notices
    assert end.type == "auto_retry_end" and end.data == {"success": True, "attempt": 1}


def test_an_overflow_is_compact_now_then_retry_once(runs: RunController, settings) -> None:
    last = _failed("prompt is too long")
    runs.note_assistant(last, ContextOverflowError("too long"))
    step = runs.after_turn(_state(settings, [USER, last]))
    assert isinstance(step, CompactNow) and step.reason == "overflow" and step.will_retry
    assert step.drop is last
    kept_error = _failed("prompt is too long")
    done = CompactionOutcome("compacted")
    after = runs.after_compaction(step, done, _state(settings, [USER, kept_error]))
    assert isinstance(after, Continue) and after.drop is kept_error
    failed = runs.after_compaction(step, None, _state(settings, [USER]))
    assert isinstance(failed, Stop)
    runs.forget()
    runs.note_assistant(last, ContextOverflowError("too long"))
    again = runs.after_turn(_state(settings, [USER, last]))
    assert isinstance(again, Stop)
    event, warning = again.notices
    assert event.type == "compaction_end" and event.data["error_message"] == OVERFLOW_GAVE_UP
    assert warning == OVERFLOW_GAVE_UP


def test_a_full_context_is_compact_now(runs: RunController, settings) -> None:
    runs.note_assistant(OK, None)
    full = _state(settings, [USER, OK], tokens=150_000)
    step = runs.after_turn(full)
    assert isinstance(step, CompactNow) and step.reason == "threshold" and not step.will_retry
    assert step.drop is None
    assert runs.before_prompt(full) == CompactNow(reason="threshold")
    assert runs.before_prompt(_state(settings, [USER, OK])) is None
    queued = _state(settings, [USER, OK], queued=True)
    assert isinstance(runs.after_compaction(step, CompactionOutcome("compacted"), queued), Continue)


def test_queued_messages_continue_unless_aborted(runs: RunController, settings) -> None:
    runs.note_assistant(OK, None)
    assert runs.after_turn(_state(settings, [USER, OK], queued=True)) == Continue()
    assert runs.after_turn(_state(settings, [USER, OK])) == Stop()
    aborted = _state(settings, [USER, OK], queued=True, aborted=True)
    assert runs.after_turn(aborted) == Stop()
