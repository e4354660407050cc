"""What a compaction cost, as recorded in its entry's ``details.cost`` (pi ignores it).

``{tokensBefore, tokensAfter, summarizer, model, usage: {input, output}, durationMs}``:
``tokensAfter`` estimates the context right after it (``tokensBefore`` less the summarized
messages, plus the summary); ``usage`` adds up the summarizers' own requests (what their
``details.requests`` report); ``model`` is the summarizers' model(s), ``None`` for one
without a model (``offline``). ``tether session stats`` and ``tether run`` show it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any


def summarizer_usage(summaries: Sequence[Any]) -> tuple[str | None, dict[str, int]]:
    """``(model, {input, output})`` over the summaries' recorded requests."""
    models: list[str] = []
    usage = {"input": 0, "output": 0}
    for summary in summaries:
        details = getattr(summary, "details", None) or {}
        model = details.get("model")
        if isinstance(model, str) and model not in models:
            models.append(model)
        for request in details.get("requests") or ():
            used = request.get("usage") if isinstance(request, dict) else None
            if isinstance(used, dict):
                for key in usage:
                    value = used.get(key)
                    usage[key] += int(value) if isinstance(value, (int, float)) else 0
    return ("+".join(models) or None), usage


def started_now() -> float:
    """When a compaction starts (what :func:`compaction_cost` takes as ``started``)."""
    return time.perf_counter()


def compaction_cost(
    hooks: Any, settings: Any, context: Any, outcome: Any, summary: str, started: float
) -> dict[str, Any]:
    """``details.cost`` of a compaction that began at ``started`` (:func:`started_now`):
    ``context`` the session's context before it; ``outcome`` its ``CompactionOutcome``
    (``preparation``, ``summaries``, ``summarizer``); ``tokensAfter`` is counted with the
    chosen token counter."""
    from tether.core.choices.running import token_counter

    count = token_counter(hooks.pm, settings, model=context.model)
    preparation, summaries, summarizer = outcome.preparation, outcome.summaries, outcome.summarizer
    replaced = [*preparation.messages_to_summarize, *preparation.turn_prefix_messages]
    gone = int(sum(count(replaced))) if replaced else 0
    after = max(0, int(preparation.tokens_before) - gone) + math.ceil(len(summary) / 4)
    model, usage = summarizer_usage(summaries)
    return {
        "tokensBefore": int(preparation.tokens_before),
        "tokensAfter": after,
        "summarizer": summarizer,
        "model": model,
        "usage": usage,
        "durationMs": round((time.perf_counter() - started) * 1000, 1),
    }


__all__ = ["compaction_cost", "started_now", "summarizer_usage"]
