"""A compaction's summary in parts: the history and, for a split turn, the turn prefix.

:func:`summary_parts` asks the chosen summarizer for each part — both at once on a split turn,
as pi does (:func:`ask_parts`) — and :func:`merge_parts` joins them as pi does. The summary
gate's retry asks again only for the part that lacked something (``keep`` holds the others).

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
from typing import Any, Literal

from tether.core.base.errors import TetherError
from tether.core.choices.running import run_summarizer
from tether.core.context.file_tracking import strip_file_lists
from tether.hookspecs.events import CompactionPreparation, SummarizeRequest, Summary
from tether.hookspecs.gate import SummaryAttempt

Progress = Callable[[str], None]
Ask = Callable[[SummarizeRequest], Summary]

SPLIT_TURN_SEPARATOR = "\n\n---\n\n**Turn Context (split turn):**\n\n"
NO_PRIOR_HISTORY = "No prior history."
HISTORY_SHARE = 0.8  # history summary output budget: 80% of reserveTokens (pi)
TURN_PREFIX_SHARE = 0.5  # turn-prefix summary output budget: 50% of reserveTokens (pi)
_PROGRESS_LABELS = {
    "compaction": "history",
    "turn_prefix": "split-turn prefix",
    "branch": "abandoned branch",
}


def summary_budgets(reserve_tokens: int) -> tuple[int, int]:
    """pi's output budgets ``(history, turn_prefix)``: ``floor(0.8 × r)``, ``floor(0.5 × r)``."""
    return (
        math.floor(HISTORY_SHARE * reserve_tokens),
        math.floor(TURN_PREFIX_SHARE * reserve_tokens),
    )


HISTORY, TURN_PREFIX = "compaction", "turn_prefix"  # the parts of a summary (request kinds)


def summary_parts(
    hooks: Any,
    preparation: CompactionPreparation,
    base: SummarizeRequest,
    custom_instructions: str | None,
    say: Progress,
    failure: str,
    *,
    note: str | None = None,
    keep: dict[str, Summary] | None = None,
) -> dict[str, Summary]:
    """The summarizers' answers by part: ``compaction`` (the history; absent when a split
    turn has none) and ``turn_prefix`` (a split turn's prefix), asked at once as pi does.

    ``custom_instructions`` go to the history only (pi's placement); ``note`` (the summary
    gate's retry note) to every part asked. Parts in ``keep`` are not asked again.
    """
    history_budget, prefix_budget = summary_budgets(preparation.settings.reserve_tokens)
    split = preparation.is_split_turn and bool(preparation.turn_prefix_messages)
    kept = dict(keep or {})
    wanted: list[tuple[str, SummarizeRequest]] = []
    if (preparation.messages_to_summarize or not split) and HISTORY not in kept:
        focus = "\n\n".join(part for part in (custom_instructions, note) if part) or None
        history = part_request(
            base,
            HISTORY,
            preparation.messages_to_summarize,
            history_budget,
            preparation.previous_summary,
            focus,
            entry_ids=preparation.summarized_entry_ids,
            replace=base.replace_instructions,
        )
        wanted.append((HISTORY, history))
    if split and TURN_PREFIX not in kept:
        prefix = part_request(
            base,
            TURN_PREFIX,
            preparation.turn_prefix_messages,
            prefix_budget,
            None,
            note,
            entry_ids=preparation.turn_prefix_entry_ids,
        )
        wanted.append((TURN_PREFIX, prefix))
    for _part, request in wanted:
        say(f"summarizing {len(request.messages)} messages ({_PROGRESS_LABELS[request.kind]})")
    asked = ask_parts(hooks.pm, wanted, lambda request: request_summary(hooks, request, failure))
    parts = {**kept, **asked}
    return {part: parts[part] for part in (HISTORY, TURN_PREFIX) if part in parts}


def merge_parts(
    preparation: CompactionPreparation, parts: dict[str, Summary]
) -> tuple[str, list[Summary]]:
    """The summary text of ``parts`` (without file lists) as pi merges a split turn, and the
    answers it comes from."""
    history = parts.get(HISTORY)
    if history is not None:
        text = history.text
    elif preparation.previous_summary:
        text = strip_file_lists(preparation.previous_summary)  # a split turn keeps it
    else:
        text = NO_PRIOR_HISTORY
    prefix = parts.get(TURN_PREFIX)
    if prefix is not None:
        text += SPLIT_TURN_SEPARATOR + prefix.text
    return text, list(parts.values())


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
    """One attempt at the whole summary, for the summary gate (its parts included)."""
    parts = summary_parts(
        hooks, preparation, base, custom_instructions, say, failure, note=note, keep=keep
    )
    text, answers = merge_parts(preparation, parts)
    return SummaryAttempt(text, answers, parts)


def summarize_preparation(
    hooks: Any,
    preparation: CompactionPreparation,
    base: SummarizeRequest,
    custom_instructions: str | None,
    say: Progress,
    failure: str,
) -> tuple[str, list[Summary]]:
    """The summary text of a preparation (without file lists) and the summarizers' answers.

    A split turn gets two requests at once — the history (kind ``compaction``) and the turn
    prefix (kind ``turn_prefix``) — merged as pi merges them.
    """
    parts = summary_parts(hooks, preparation, base, custom_instructions, say, failure)
    return merge_parts(preparation, parts)


def part_request(
    base: SummarizeRequest,
    kind: Literal["compaction", "turn_prefix", "branch"],
    messages: list[dict[str, Any]],
    max_tokens: int,
    previous_summary: str | None,
    custom_instructions: str | None,
    *,
    entry_ids: list[str] | None = None,
    replace: bool = False,
) -> SummarizeRequest:
    """One ``summarize`` request sharing ``base``'s fields."""
    return SummarizeRequest(
        kind=kind,
        messages=messages,
        previous_summary=previous_summary,
        custom_instructions=custom_instructions,
        max_tokens=max_tokens,
        settings=dict(base.settings),
        model=base.model,
        registry=base.registry,
        thinking_level=base.thinking_level,
        signal=base.signal,
        replace_instructions=replace,
        app_settings=base.app_settings,
        previous_details=base.previous_details if previous_summary else None,
        entry_ids=list(entry_ids or []),
        fact_cues=base.fact_cues,
    )


def ask_summary(
    hooks: Any,
    base: SummarizeRequest,
    kind: Literal["compaction", "turn_prefix", "branch"],
    messages: list[dict[str, Any]],
    max_tokens: int,
    previous_summary: str | None,
    custom_instructions: str | None,
    say: Progress,
    failure: str,
    *,
    entry_ids: list[str] | None = None,
    replace: bool = False,
) -> Summary:
    """One ``summarize`` request sharing ``base``'s fields; progress says what is summarized."""
    say(f"summarizing {len(messages)} messages ({_PROGRESS_LABELS[kind]})")
    request = part_request(
        base,
        kind,
        messages,
        max_tokens,
        previous_summary,
        custom_instructions,
        entry_ids=entry_ids,
        replace=replace,
    )
    return request_summary(hooks, request, failure)


def request_summary(hooks: Any, request: SummarizeRequest, failure: str) -> Summary:
    """The chosen summarizer's answer; a failure or an empty text is a :class:`TetherError`."""
    try:
        return run_summarizer(hooks.pm, request)
    except TetherError as exc:
        raise TetherError(f"{failure}: {exc}") from exc


def _own_registry(pm: Any, request: SummarizeRequest) -> tuple[SummarizeRequest, Any]:
    """``request`` with a model registry of its own (the shared one's ``fresh()``: same
    models.json, environment and settings), and that registry to close; the request as it is
    when its registry offers no ``fresh()``."""
    fresh = getattr(request.registry, "fresh", None)
    if fresh is None:
        return request, None
    own = fresh()
    return dataclasses.replace(request, registry=own), own


def ask_parts(
    pm: Any, requests: list[tuple[str, SummarizeRequest]], ask: Ask
) -> dict[str, Summary]:
    """``ask(request)`` for each ``(part, request)``, concurrently when there are two; the
    answers by part, in request order.

    A failure of the first request waits for the second, then is raised; an interruption
    (Ctrl-C) does not wait: the second request is left to its daemon thread."""
    if len(requests) < 2:
        return {part: ask(request) for part, request in requests}
    if len(requests) != 2:
        raise ValueError(f"a summary has at most two parts, got {len(requests)}")
    (first_part, first), (second_part, second) = requests
    second, own = _own_registry(pm, second)
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
    "HISTORY",
    "NO_PRIOR_HISTORY",
    "SPLIT_TURN_SEPARATOR",
    "TURN_PREFIX",
    "ask_parts",
    "ask_summary",
    "merge_parts",
    "part_request",
    "request_summary",
    "summarize_preparation",
    "summary_attempt",
    "summary_budgets",
    "summary_parts",
]
