"""The ``prepare_branch_summary`` hook: what a branch summary is made of.

pi's newest-messages-within-budget input is the built-in answer (plugin
``compaction_strategy``); an installed answer replaces it, and a counter that fails while the
hook counts is blamed on the counter, not on the plugin that called it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.compaction_helpers import ScriptedSummarizer, add_round, hooks_with, new_session
from tests.compaction_helpers import settings as compaction_settings
from tether.core.base.errors import TetherError
from tether.core.memory.branching import navigate_tree
from tether.core.session.session import Session
from tether.hookspecs import hookimpl
from tether.hookspecs.branch import BranchPreparation
from tether.hookspecs.events import Entry


def _session(tmp_path: Path) -> tuple[Session, Path, list[str]]:
    file = tmp_path / "s.jsonl"
    session = new_session(file)
    for n in range(3):
        add_round(session, n, words=10)
    users = [e["id"] for e in session.entries() if (e.get("message") or {}).get("role") == "user"]
    return session, file, users


class UserOnly:
    """Summarize only what the user said on the branch; no file lists."""

    def __init__(self) -> None:
        self.windows: list[tuple[int | None, int]] = []

    @hookimpl
    def prepare_branch_summary(
        self, entries: list[Entry], context_window: int | None, reserve_tokens: int
    ) -> BranchPreparation:
        self.windows.append((context_window, reserve_tokens))
        said = [e for e in entries if (e.get("message") or {}).get("role") == "user"]
        return BranchPreparation([e["message"] for e in said], [e["id"] for e in said])


def test_an_installed_preparation_replaces_pis(tmp_path: Path) -> None:
    session, _file, users = _session(tmp_path)
    summarizer, prepare = ScriptedSummarizer(), UserOnly()
    hooks = hooks_with(("s", summarizer), ("user-only", prepare))
    outcome = navigate_tree(session, hooks, compaction_settings(), users[1], summarize=True)
    (asked,) = summarizer.requests
    assert [m["role"] for m in asked.messages] == ["user"]  # round 2's; round 1's is the target
    assert asked.kind == "branch"
    details = outcome.summary_entry["details"]
    assert details["readFiles"] == [] and details["modifiedFiles"] == []
    assert prepare.windows == [(128000, 16384)]  # gpt-4o's window; pi's default reserve


def test_the_built_in_preparation_is_pis(tmp_path: Path) -> None:
    session, _file, users = _session(tmp_path)
    summarizer = ScriptedSummarizer()
    navigate_tree(
        session, hooks_with(("s", summarizer)), compaction_settings(), users[1], summarize=True
    )
    (asked,) = summarizer.requests
    roles = ["assistant", "assistant", "user", "assistant", "assistant"]  # no tool results
    assert [m["role"] for m in asked.messages] == roles


class BrokenCounter:
    @hookimpl
    def register_token_counters(self, register: Any) -> None:
        def count(messages: list[Any], model: Any) -> list[int]:
            raise RuntimeError("tokenizer missing")

        register("broken", count, default=True)


def test_a_failing_counter_is_blamed_not_the_preparation(tmp_path: Path) -> None:
    session, file, users = _session(tmp_path)
    before = file.read_bytes()
    hooks = hooks_with(("s", ScriptedSummarizer()), ("broken-counter", BrokenCounter()))
    with pytest.raises(TetherError) as caught:
        navigate_tree(session, hooks, compaction_settings(), users[1], summarize=True)
    line = str(caught.value)
    assert "broken-counter" in line and "tokenizer missing" in line
    assert "compaction_strategy" not in line and "prepare_branch_summary" not in line
    assert file.read_bytes() == before
