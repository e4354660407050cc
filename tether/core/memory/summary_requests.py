"""Asking the chosen summarizer: one request, or a compaction's parts at once.

:func:`summary_attempt` asks the ``plan_summary`` hook which requests a compaction's
preparation needs (built-in: pi's history and split-turn prefix, plugin
``compaction_strategy``), asks them — both at once when there are two, as pi does
(:func:`ask_parts`) — and lets the plan merge the answers. :func:`request_summary` is one
request (a branch summary's).

Concurrency: the first request runs in the calling thread, the second in a worker thread with
its own model registry (the built-in registry caches its HTTP clients lazily and is not
shared between threads). A summarizer plugin may therefore be called from two threads at once.
Both requests finish before :func:`ask_parts` returns (unless the user interrupts); the first
failure (in request order) is raised.
"""

from __future__ import annotations

import dataclasses
import math
import threading
from collections.abc import Callable
from typing import Any

from tether.core.base.errors import TetherError
from tether.core.choices.running import run_summarizer
from tether.hookspecs import memory as memory_hooks
from tether.hookspecs.events import CompactionPreparation, SummarizeRequest, Summary
from tether.hookspecs.gate import SummaryAttempt, SummaryPlan

Progress = Callable[[str], None]
Ask = Callable[[SummarizeRequest], Summary]

HISTORY_SHARE = 0.8  # history summary output budget: 80% of reserveTokens (pi)
TURN_PREFIX_SHARE = 0.5  # turn-prefix summary output budget: 50% of reserveTokens (pi)
_PROGRESS_LABELS = {"compaction": "history", "turn_prefix": "split-turn prefix"}


def summary_budgets(reserve_tokens: int) -> tuple[int, int]:
    """pi's output budgets ``(history, turn_prefix)``: ``floor(0.8 × r)``, ``floor(0.5 × r)``."""
    return (
        math.floor(HISTORY_SHARE * reserve_tokens),
        math.floor(TURN_PREFIX_SHARE * reserve_tokens),
    )


def summary_attempt(
    hooks: Any,
    preparation: CompactionPreparation,
    base: SummarizeRequest,
    custom_instructions: str | None,
    say: Progress,
    failure: str,
    *,
    note: str | None = None,
    keep: dict[str, Summary] | None = None,
) -> SummaryAttempt:
    """One attempt at the whole summary of ``preparation`` (its parts included), for the
    summary gate: the ``plan_summary`` hook's requests asked at once, the answers merged by
    the plan. ``note`` (the gate's retry note) goes to every part asked; parts in ``keep`` are
    not asked again."""
    kept = dict(keep or {})
    plan = hooks.first(memory_hooks.plan_summary, SummaryPlan, failure=failure)(
        preparation=preparation,
        request=base,
        custom_instructions=custom_instructions,
        note=note,
        keep=frozenset(kept),
    )
    if plan is None:
        raise TetherError(f"{failure}: no plugin plans the summary (plan_summary hook)")
    for _part, request in plan.requests:
        label = _PROGRESS_LABELS.get(request.kind, request.kind)
        say(f"summarizing {len(request.messages)} messages ({label})")
    asked = ask_parts(plan.requests, lambda request: request_summary(hooks, request, failure))
    return plan.merge({**kept, **asked})


def request_summary(hooks: Any, request: SummarizeRequest, failure: str) -> Summary:
    """The chosen summarizer's answer; a failure or an empty text is a :class:`TetherError`."""
    try:
        return run_summarizer(hooks.pm, request)
    except TetherError as exc:
        raise TetherError(f"{failure}: {exc}") from exc


def _own_registry(request: SummarizeRequest) -> tuple[SummarizeRequest, Any]:
    """``request`` with a model registry of its own (the shared one's ``fresh()``: same
    models.json, environment and settings), and that registry to close; the request as it is
    when its registry offers no ``fresh()``."""
    fresh = getattr(request.registry, "fresh", None)
    if fresh is None:
        return request, None
    own = fresh()
    return dataclasses.replace(request, registry=own), own


def ask_parts(requests: list[tuple[str, SummarizeRequest]], ask: Ask) -> dict[str, Summary]:
    """``ask(request)`` for each ``(part, request)``, concurrently when there are two; the
    answers by part, in request order.

    A failure of the first request waits for the second, then is raised; an interruption
    (Ctrl-C) does not wait: the second request is left to its daemon thread."""
    if len(requests) < 2:
        return {part: ask(request) for part, request in requests}
    if len(requests) != 2:
        raise ValueError(f"a summary has at most two parts, got {len(requests)}")
    (first_part, first), (second_part, second) = requests
    second, own = _own_registry(second)
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["answer"] = ask(second)
        except BaseException as exc:  # handed to the calling thread
            outcome["error"] = exc

    worker = threading.Thread(target=work, name="tether-summary", daemon=True)
    worker.start()
    try:
        answer = ask(first)
    except Exception:  # (an interruption is raised at once, the daemon thread left behind)
        worker.join()
        _close(own)
        raise
    worker.join()
    _close(own)
    if "error" in outcome:
        raise outcome["error"]
    return {first_part: answer, second_part: outcome["answer"]}


def _close(registry: Any) -> None:
    if registry is not None:
        registry.close()


__all__ = [
    "ask_parts",
    "request_summary",
    "summary_attempt",
    "summary_budgets",
]
