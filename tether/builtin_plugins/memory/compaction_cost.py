"""Built-in plugin ``compaction_cost``: what a compaction cost, recorded in its entry's
``details.cost`` (pi ignores it), through the ``compaction_details`` hook.

``{tokensBefore, tokensAfter, summarizer, model, usage: {input, output}, durationMs}``:
``tokensAfter`` estimates the context right after it (``tokensBefore`` less the summarized
messages, plus the summary); ``usage`` adds up the summarizers' own requests (what their
``details.requests`` report) over every answer of the compaction — a retry's, and the calls
whose answers the summary gate threw away before a fallback; ``model`` is the model(s) of
those answers, ``None`` when none had a model (``offline``). ``tether session stats`` and
``tether run`` show it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from tether.hookspecs import hookimpl

if TYPE_CHECKING:
    from tether.hookspecs.events import CompactionPreparation, Message, Summary


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


@hookimpl
def compaction_details(
    preparation: CompactionPreparation,
    answers: list[Summary],
    summarizer: str,
    summary: str,
    count: Callable[[list[Message]], list[int]],
    started: float,
) -> dict[str, Any]:
    """``{"cost": …}`` for the entry's details, of a compaction that began at ``started``
    (``time.perf_counter()``); ``tokensAfter`` is counted with ``count``, the chosen token
    counter; usage and model are those of every answer (``answers``)."""
    replaced = [*preparation.messages_to_summarize, *preparation.turn_prefix_messages]
    gone = int(sum(count(replaced))) if replaced else 0
    after = max(0, int(preparation.tokens_before) - gone) + math.ceil(len(summary) / 4)
    model, usage = summarizer_usage(answers)
    cost = {
        "tokensBefore": int(preparation.tokens_before),
        "tokensAfter": after,
        "summarizer": summarizer,
        "model": model,
        "usage": usage,
        "durationMs": round((time.perf_counter() - started) * 1000, 1),
    }
    return {"cost": cost}


__all__ = ["compaction_details", "summarizer_usage"]
