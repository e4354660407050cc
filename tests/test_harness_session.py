"""The harness's session actions with the offline ``faux`` provider: resume (model and
thinking restored), fork, clone, new, tree navigation with a branch summary, compaction."""

from __future__ import annotations

import shutil

from tests.harness_helpers import (
    open_harness,
    plugin_manager,
    read_entries,
    write_home,
)
from tests.test_harness import FAUX, FIXTURES, Recorder, script, sent
from tether.core.base.settings import load_settings
from tether.core.harness.harness import Harness
from tether.core.session.session import Session
from tether.hookspecs import hookimpl


def test_resume_restores_model_and_thinking(home, tmp_path):
    with open_harness(plugin_manager(), tmp_path, home, FAUX, thinking="low") as harness:
        harness.prompt("hello")
        file = harness.session.file
    size = file.stat().st_size
    settings = load_settings(tmp_path, home=home)
    resumed = Harness(plugin_manager(), Session.open(file), settings=settings, cwd=str(tmp_path))
    assert (resumed.model.ref, resumed.thinking_level) == (FAUX, "low")
    assert file.stat().st_size == size  # nothing to record: model and level come from the file
    assert [m["role"] for m in resumed.agent.state.messages] == ["user", "assistant"]


def test_resume_pi_session_without_thinking_entry(home, tmp_path):
    write_home(home, settings={"defaultProvider": "faux", "defaultModel": "faux-1"})
    copy = tmp_path / "g02.jsonl"
    shutil.copy(FIXTURES / "g02-linear-text.jsonl", copy)
    before = Session.open(copy).build_context().messages
    warnings: list[str] = []
    harness = Harness(
        plugin_manager(),
        Session.open(copy),
        settings=load_settings(tmp_path, home=home),
        cwd=str(tmp_path),
        on_warning=warnings.append,
        registry=None,
    )
    # anthropic has no key here: pi's fallback, with pi's warning
    assert warnings == ["Could not restore model anthropic/claude-sonnet-4-5. Using faux/faux-1"]
    assert harness.agent.state.messages == before
    last = read_entries(copy)[-1]
    assert last["type"] == "thinking_level_change" and last["thinkingLevel"] == "medium"


def test_fork_clone_new_resume(home, tmp_path):
    recorder = Recorder()
    with open_harness(plugin_manager(("recorder", recorder)), tmp_path, home, FAUX) as h:
        h.prompt("first")
        h.prompt("second")
        original = h.session.file
        users = [
            e["id"] for e in read_entries(original) if e.get("message", {}).get("role") == "user"
        ]
        text = h.fork(users[1])
        assert text == "second"
        forked = h.session.file
        assert forked != original
        assert [m["role"] for m in h.agent.state.messages] == ["user", "custom", "assistant"]
        h.prompt("second, again")
        assert h.clone()
        assert h.session.build_context().messages == h.agent.state.messages
        h.new_session()
        assert h.agent.state.messages == []
        h.resume(original)
        users = [m for m in h.agent.state.messages if m["role"] == "user"]
        assert [m["content"][0]["text"] for m in users] == ["first", "second"]
    assert recorder.lifecycle == [
        ("start", "startup"),
        ("shutdown", "fork"),
        ("start", "fork"),
        ("shutdown", "fork"),
        ("start", "fork"),
        ("shutdown", "new"),
        ("start", "new"),
        ("shutdown", "resume"),
        ("start", "resume"),
        ("shutdown", "quit"),
    ]
    header = read_entries(forked)[0]
    assert header["parentSession"] == str(original)


class NoForks:
    @hookimpl
    def session_before_fork(self, event):
        from tether.hookspecs.events import Cancel

        return Cancel("forks are off")


def test_fork_can_be_cancelled(home, tmp_path):
    with open_harness(
        plugin_manager(("nofork", NoForks())), tmp_path, home, FAUX, on_warning=lambda _m: None
    ) as h:
        h.prompt("first")
        file = h.session.file
        assert h.clone() is False
        assert h.session.file == file


def test_tree_navigation_with_branch_summary(home, tmp_path):
    write_home(home, settings={"compaction": {"summarizer": "offline"}})
    with open_harness(plugin_manager(), tmp_path, home, FAUX) as h:
        h.prompt("first")
        h.prompt("try approach A")
        first_answer = [
            e
            for e in read_entries(h.session.file)
            if e.get("message", {}).get("role") == "assistant"
        ][0]["id"]
        outcome = h.navigate(first_answer, summarize=True)
        assert outcome.summary_entry is not None
        assert [m["role"] for m in h.agent.state.messages] == ["user", "assistant", "branchSummary"]
        h.prompt("try approach B")
        request = sent(h)
        file = h.session.file
    summary = request.messages[2]["content"][0]["text"]
    assert "approach A" in summary
    reopened = Session.open(file).build_context().messages
    assert [m["role"] for m in reopened] == [
        "user",
        "assistant",
        "branchSummary",
        "user",
        "assistant",
    ]


def test_manual_compaction(home, tmp_path):
    write_home(home, settings={"compaction": {"summarizer": "offline", "keepRecentTokens": 10}})
    with open_harness(plugin_manager(), tmp_path, home, FAUX) as h:
        assert h.compact().status == "nothing"
        for n in range(4):
            h.prompt(f"question number {n} " * 10)
        outcome = h.compact("focus on numbers")
        assert outcome.status == "compacted"
        assert h.agent.state.messages[0]["role"] == "compactionSummary"
        h.prompt("after")
        file, messages = h.session.file, list(h.agent.state.messages)
    assert Session.open(file).build_context().messages == messages


def test_threshold_compaction_with_faux_usage(home, tmp_path, monkeypatch):
    write_home(
        home,
        settings={
            "compaction": {"summarizer": "offline", "reserveTokens": 100, "keepRecentTokens": 50}
        },
    )
    script(
        monkeypatch,
        {"text": "a", "usage": {"input": 10}},
        {"text": "b", "usage": {"input": 127950}},
        "c",
    )
    seen: list[str] = []
    with open_harness(plugin_manager(), tmp_path, home, FAUX) as h:
        h.subscribe(lambda e: seen.append(e.data["reason"]) if e.type == "compaction_end" else 0)
        h.prompt("one " * 50)
        h.prompt("two " * 50)
        assert seen == ["threshold"]
        h.prompt("three")
        assert seen == ["threshold"]  # the usage before the compaction no longer counts
