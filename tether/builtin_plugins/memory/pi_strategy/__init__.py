"""Built-in plugin ``compaction_strategy``: pi 0.73's compaction preparation, the strategy
``pi`` (the built-in default of ``compaction.strategy``), with tether's fixes — split turns
decided on the real cut point and "nothing to compact" instead of an empty summary
request — and pi's plan of the summary requests (``plan_summary``: the history, and a split
turn's prefix asked at the same time) and pi's branch-summary input
(``prepare_branch_summary``). With pruning on, a tool result the pruning stage left
out of the live context is summarized as the placeholder the model saw (prune, then summarize:
the summary requests shrink; ``recall`` still reads the entry).

The algorithm lives in ``_prepare`` / ``_cut_points`` as pure functions over raw entries; the
kernel hands it the chosen token counter (``request.count``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tether.hookspecs import hookimpl

if TYPE_CHECKING:
    from collections.abc import Callable

    from tether.hookspecs.branch import BranchPreparation
    from tether.hookspecs.events import (
        CompactionPreparation,
        Entry,
        Message,
        NothingToCompact,
        PrepareRequest,
        SummarizeRequest,
    )
    from tether.hookspecs.gate import SummaryPlan


def prepare_pi(request: PrepareRequest) -> CompactionPreparation | NothingToCompact:
    """pi's preparation of ``request.path`` (root-first branch) with tether's fixes."""
    from tether.builtin_plugins.memory.pi_strategy.prepare import prepare_compaction_entries

    prune = request.settings.options.get("prune")
    pruning = not isinstance(prune, dict) or prune.get("enabled", True) is not False
    return prepare_compaction_entries(request.path, request.settings, request.count, pruned=pruning)


@hookimpl
def register_compaction_strategies(register: Any) -> None:
    register("pi", prepare_pi)


@hookimpl(trylast=True)
def plan_summary(
    preparation: CompactionPreparation,
    request: SummarizeRequest,
    custom_instructions: str | None,
    note: str | None,
    keep: frozenset[str],
) -> SummaryPlan:
    """pi's requests for a compaction's summary: the history and a split turn's prefix."""
    from tether.builtin_plugins.memory.pi_strategy.summary_parts import plan_parts

    return plan_parts(preparation, request, custom_instructions, note, keep)


@hookimpl(trylast=True)
def prepare_branch_summary(
    entries: list[Entry],
    count: Callable[[list[Message]], list[int]],
    context_window: int | None,
    reserve_tokens: int,
) -> BranchPreparation:
    """pi's branch-summary input: the newest messages within the window minus the reserve."""
    from tether.builtin_plugins.memory.pi_strategy.branch_input import (
        branch_token_budget,
        prepare_branch_entries,
    )

    budget = branch_token_budget(context_window, reserve_tokens)
    return prepare_branch_entries(entries, budget, count)


__all__ = [
    "plan_summary",
    "prepare_branch_summary",
    "prepare_pi",
    "register_compaction_strategies",
]
