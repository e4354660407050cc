"""The ``plan_summary`` hook: which summarizer requests a compaction's summary takes.

The kernel asks the plan and sends its requests; pi's history + split-turn prefix is the
built-in plan (plugin ``compaction_strategy``), and an installed plan replaces it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.compaction_helpers import ScriptedSummarizer, copy_fixture, hooks_with, settings
from tests.context_loader import GEN, golden_request
from tether.core.base.errors import TetherError
from tether.core.memory.compaction import compact
from tether.core.session.session import Session
from tether.hookspecs import hookimpl
from tether.hookspecs.events import CompactionPreparation, SummarizeRequest, Summary
from tether.hookspecs.gate import SummaryAttempt, SummaryPlan

SPLIT = "g02-linear-text"  # pi asks two requests here: the history and the turn prefix


class OneRequest:
    """A plan that asks for everything in one request and prefixes the answer."""

    def __init__(self) -> None:
        self.keeps: list[frozenset[str]] = []

    @hookimpl
    def plan_summary(
        self,
        preparation: CompactionPreparation,
        request: SummarizeRequest,
        keep: frozenset[str],
    ) -> SummaryPlan:
        self.keeps.append(keep)
        messages = [*preparation.messages_to_summarize, *preparation.turn_prefix_messages]
        one = request.derive("compaction", messages, 1234, preparation.previous_summary, None)

        def merge(parts: dict[str, Summary]) -> SummaryAttempt:
            return SummaryAttempt("[one] " + parts["all"].text, list(parts.values()), parts)

        return SummaryPlan([("all", one)], merge)


class BrokenPlan:
    @hookimpl
    def plan_summary(self) -> Any:
        return "not a plan"


def _session(tmp_path: Path) -> tuple[Session, dict[str, Any], Path]:
    file = copy_fixture(GEN / f"{SPLIT}.jsonl", tmp_path)
    return Session.open(file), golden_request(SPLIT, "compact"), file


def test_the_built_in_plan_asks_pis_two_parts(tmp_path: Path) -> None:
    session, request, _file = _session(tmp_path)
    summarizer = ScriptedSummarizer()
    hooks = hooks_with(("scripted", summarizer), pi_mode=True)
    budgets = settings(reserveTokens=request["reserve"], keepRecentTokens=request["keep"])
    outcome = compact(session, hooks, budgets)
    assert outcome.status == "compacted", outcome.reason
    assert sorted(r.kind for r in summarizer.requests) == ["compaction", "turn_prefix"]


def test_an_installed_plan_replaces_pis(tmp_path: Path) -> None:
    session, request, _file = _session(tmp_path)
    summarizer, plan = ScriptedSummarizer(texts={"compaction": "all of it"}), OneRequest()
    hooks = hooks_with(("scripted", summarizer), ("one-request", plan), pi_mode=True)
    budgets = settings(reserveTokens=request["reserve"], keepRecentTokens=request["keep"])
    outcome = compact(session, hooks, budgets)
    assert outcome.status == "compacted", outcome.reason
    assert [(r.kind, r.max_tokens) for r in summarizer.requests] == [("compaction", 1234)]
    prep = outcome.preparation
    assert prep is not None and prep.is_split_turn
    expected = [*prep.messages_to_summarize, *prep.turn_prefix_messages]
    assert summarizer.requests[0].messages == expected
    assert outcome.entry is not None
    assert outcome.entry["summary"] == "[one] all of it"  # (no file touched: no file lists)
    assert plan.keeps == [frozenset()]


def test_a_wrong_plan_fails_naming_the_plugin(tmp_path: Path) -> None:
    session, request, file = _session(tmp_path)
    before = file.read_bytes()
    hooks = hooks_with(("scripted", ScriptedSummarizer()), ("broken-plan", BrokenPlan()))
    budgets = settings(reserveTokens=request["reserve"], keepRecentTokens=request["keep"])
    with pytest.raises(TetherError) as caught:
        compact(session, hooks, budgets)
    line = str(caught.value)
    assert "broken-plan" in line and "plan_summary" in line and "\n" not in line
    assert file.read_bytes() == before
