"""The memory side of :class:`~tether.core.hooks.facade.Hooks`: the hooks that say how a
summary is made — the requests a compaction's summary takes (``plan_summary``), what a branch
summary is made of (``prepare_branch_summary``) — and what a compaction entry records beyond
pi's (``compaction_details``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tether.core.hooks.declared import every_answer, first_answer

if TYPE_CHECKING:
    from tether.hookspecs.branch import BranchPreparation
    from tether.hookspecs.events import (
        CompactionPreparation,
        Entry,
        Message,
        SummarizeRequest,
        Summary,
    )
    from tether.hookspecs.gate import SummaryPlan


class MemoryCalls:
    """Mixed into :class:`~tether.core.hooks.facade.Hooks`; each method is declared by its
    signature (:mod:`tether.core.hooks.declared`)."""

    @first_answer("gate.SummaryPlan")
    def plan_summary(
        self,
        *,
        preparation: CompactionPreparation,
        request: SummarizeRequest,
        custom_instructions: str | None,
        note: str | None,
        keep: frozenset[str],
        failure: str | None = None,
    ) -> SummaryPlan | None:
        """The requests a compaction summary takes (``plan_summary``); ``None``: no plan."""

    @every_answer("dict")
    def compaction_details(
        self,
        *,
        preparation: CompactionPreparation,
        summaries: list[Summary],
        answers: list[Summary],
        summarizer: str,
        summary: str,
        count: Callable[[list[Message]], list[int]],
        started: float,
        failure: str | None = None,
    ) -> list[dict[str, Any]]:
        """Every plugin's additions to a compaction entry's details (``compaction_details``)."""
        raise NotImplementedError  # declared: every_answer makes the call

    @first_answer("branch.BranchPreparation")
    def prepare_branch_summary(
        self,
        *,
        entries: list[Entry],
        count: Callable[[list[Message]], list[int]],
        context_window: int | None,
        reserve_tokens: int,
        failure: str | None = None,
    ) -> BranchPreparation | None:
        """What a branch summary is made of (``prepare_branch_summary``); ``None``: no answer."""


__all__ = ["MemoryCalls"]
