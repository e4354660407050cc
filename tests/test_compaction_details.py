"""The ``compaction_details`` hook: tether's own keys in a compaction entry's ``details``.

The built-in (plugin ``compaction_cost``) records ``details.cost``; an installed plugin adds
its keys (installed plugins are called before the built-ins); pi mode (no summary gate) writes
pi's details only; a wrong answer fails the compaction naming the plugin, with the session
file unchanged.
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
from tether.hookspecs.events import CompactionPreparation

NAME = "g03-linear-tools"


class Stats:
    @hookimpl
    def compaction_details(self, preparation: CompactionPreparation, summary: str) -> Any:
        return {"myStats": [len(preparation.messages_to_summarize), len(summary)]}


class Wrong:
    @hookimpl
    def compaction_details(self) -> Any:
        return ["not", "a", "dict"]


def _compact(tmp_path: Path, *plugins: tuple[str, object], pi_mode: bool = False) -> Any:
    request = golden_request(NAME, "compact")
    session = Session.open(copy_fixture(GEN / f"{NAME}.jsonl", tmp_path))
    hooks = hooks_with(("scripted", ScriptedSummarizer()), *plugins, pi_mode=pi_mode)
    budgets = settings(reserveTokens=request["reserve"], keepRecentTokens=request["keep"])
    return compact(session, hooks, budgets)


def test_the_built_in_records_the_cost_and_a_plugin_adds_its_keys(tmp_path: Path) -> None:
    outcome = _compact(tmp_path, ("stats", Stats()))
    details = outcome.entry["details"]
    assert list(details)[-4:] == ["summarizer", "gate", "myStats", "cost"]  # plugins first
    cost = details["cost"]
    assert cost["summarizer"] == "scripted" and cost["model"] is None
    assert cost["usage"] == {"input": 0, "output": 0} and cost["durationMs"] >= 0
    assert 0 < cost["tokensAfter"] < cost["tokensBefore"] == outcome.entry["tokensBefore"]
    summarized = len(outcome.preparation.messages_to_summarize)
    assert details["myStats"][0] == summarized and details["myStats"][1] > 0


def test_pi_mode_writes_pis_details_only(tmp_path: Path) -> None:
    outcome = _compact(tmp_path, ("stats", Stats()), pi_mode=True)
    assert set(outcome.entry["details"]) == {"readFiles", "modifiedFiles"}


def test_a_wrong_answer_fails_naming_the_plugin(tmp_path: Path) -> None:
    file = tmp_path / f"{NAME}.jsonl"
    with pytest.raises(TetherError) as caught:
        _compact(tmp_path, ("wrong-details", Wrong()))
    line = str(caught.value)
    assert "wrong-details" in line and "compaction_details" in line
    assert file.read_bytes() == (GEN / f"{NAME}.jsonl").read_bytes()
