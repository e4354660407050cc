"""The memory side of :class:`~tether.core.hooks.facade.Hooks`: the hooks that say how a
summary is made — the requests a compaction's summary takes (``plan_summary``), what a branch
summary is made of (``prepare_branch_summary``) — and what a compaction entry records beyond
pi's (``compaction_details``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tether.core.hooks.checks import expect

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
    """Mixed into :class:`~tether.core.hooks.facade.Hooks` (which provides ``_first`` and
    ``_chain``)."""

    def _first(self, name: str, failure: str | None, answer_check: Any, **kwargs: Any) -> Any:
        raise NotImplementedError

    def _chain(self, name: str, failure: str | None, check: Any, **kwargs: Any) -> list[Any]:
        raise NotImplementedError

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
        from tether.hookspecs.gate import SummaryPlan

        return self._first(
            "plan_summary",
            failure,
            expect(SummaryPlan),
            preparation=preparation,
            request=request,
            custom_instructions=custom_instructions,
            note=note,
            keep=keep,
        )

    def compaction_details(
        self,
        *,
        preparation: CompactionPreparation,
        summaries: list[Summary],
        summarizer: str,
        summary: str,
        count: Callable[[list[Message]], list[int]],
        started: float,
        failure: str | None = None,
    ) -> list[dict[str, Any]]:
        """Every plugin's additions to a compaction entry's details (``compaction_details``)."""
        answers = self._chain(
            "compaction_details",
            failure,
            expect(dict),
            preparation=preparation,
            summaries=summaries,
            summarizer=summarizer,
            summary=summary,
            count=count,
            started=started,
        )
        return [answer for answer in answers if answer]

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
        from tether.hookspecs.branch import BranchPreparation

        return self._first(
            "prepare_branch_summary",
            failure,
            expect(BranchPreparation),
            entries=entries,
            count=count,
            context_window=context_window,
            reserve_tokens=reserve_tokens,
        )


__all__ = ["MemoryCalls"]
