"""pi's plan for a compaction's summary: the history and, for a split turn, the turn prefix.

:func:`plan_parts` answers the ``plan_summary`` hook: which ``summarize`` requests a preparation
needs — the history (kind ``compaction``, pi's output budget ``0.8 × reserveTokens``, the custom
instructions) and, on a split turn, the turn prefix (kind ``turn_prefix``, ``0.5 ×
reserveTokens``) — and :func:`merge_parts` joins the answers as pi does. The kernel asks both at
once (:mod:`tether.core.memory.summary_requests`). The summary gate's retry asks again only for
the part that lacked something (``keep`` names the others).
"""

from __future__ import annotations

from collections.abc import Collection

from tether.hookspecs.events import CompactionPreparation, SummarizeRequest, Summary
from tether.hookspecs.gate import SummaryAttempt, SummaryPlan
from tether.memory import strip_file_lists, summary_budgets

SPLIT_TURN_SEPARATOR = "\n\n---\n\n**Turn Context (split turn):**\n\n"
NO_PRIOR_HISTORY = "No prior history."
HISTORY, TURN_PREFIX = "compaction", "turn_prefix"  # the parts of a summary (request kinds)


def plan_parts(
    preparation: CompactionPreparation,
    base: SummarizeRequest,
    custom_instructions: str | None,
    note: str | None = None,
    keep: Collection[str] = (),
) -> SummaryPlan:
    """The requests for ``compaction`` (the history; none when a split turn has none) and
    ``turn_prefix`` (a split turn's prefix), as pi asks them.

    ``custom_instructions`` go to the history only (pi's placement); ``note`` (the summary
    gate's retry note) to every part asked. Parts named in ``keep`` are not asked again.
    """
    history_budget, prefix_budget = summary_budgets(preparation.settings.reserve_tokens)
    split = preparation.is_split_turn and bool(preparation.turn_prefix_messages)
    wanted: list[tuple[str, SummarizeRequest]] = []
    if (preparation.messages_to_summarize or not split) and HISTORY not in keep:
        focus = "\n\n".join(part for part in (custom_instructions, note) if part) or None
        history = base.derive(
            HISTORY,
            preparation.messages_to_summarize,
            history_budget,
            preparation.previous_summary,
            focus,
            entry_ids=preparation.summarized_entry_ids,
            replace=base.replace_instructions,
        )
        wanted.append((HISTORY, history))
    if split and TURN_PREFIX not in keep:
        prefix = base.derive(
            TURN_PREFIX,
            preparation.turn_prefix_messages,
            prefix_budget,
            None,
            note,
            entry_ids=preparation.turn_prefix_entry_ids,
        )
        wanted.append((TURN_PREFIX, prefix))
    return SummaryPlan(wanted, lambda parts: merge_parts(preparation, parts))


def merge_parts(preparation: CompactionPreparation, parts: dict[str, Summary]) -> SummaryAttempt:
    """The summary of ``parts`` (text without file lists) as pi merges a split turn: the
    history, else the previous summary (a split turn keeps it), else "No prior history.";
    then the turn prefix after pi's separator."""
    ordered = {part: parts[part] for part in (HISTORY, TURN_PREFIX) if part in parts}
    history = ordered.get(HISTORY)
    if history is not None:
        text = history.text
    elif preparation.previous_summary:
        text = strip_file_lists(preparation.previous_summary)
    else:
        text = NO_PRIOR_HISTORY
    prefix = ordered.get(TURN_PREFIX)
    if prefix is not None:
        text += SPLIT_TURN_SEPARATOR + prefix.text
    return SummaryAttempt(text, list(ordered.values()), ordered)


__all__ = [
    "HISTORY",
    "NO_PRIOR_HISTORY",
    "SPLIT_TURN_SEPARATOR",
    "TURN_PREFIX",
    "merge_parts",
    "plan_parts",
]
