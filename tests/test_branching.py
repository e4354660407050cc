"""``tether.core.memory.branching.navigate_tree``: pi's tree navigation with branch summaries.

For every corpus file the entries written equal pi's golden ``appendedEntries`` in structure
(types, parent placement, ``fromId``, label target, file lists, ``fromHook``); the summary
text differs only in tether's own preamble wording, and ``details`` also names the abandoned
leaf. Hooks can cancel, supply the summary or change the label; failures write nothing.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from tests.compaction_helpers import (
    ScriptedSummarizer,
    add_round,
    copy_fixture,
    hooks_with,
    new_session,
    settings,
)
from tests.context_loader import GEN, GOLDEN, golden, golden_request
from tether.core.base.errors import TetherError
from tether.core.base.settings import Settings
from tether.core.memory.branching import BRANCH_PREAMBLE, NO_CONTENT, navigate_tree
from tether.core.session.session import Session
from tether.hookspecs import hookimpl
from tether.hookspecs.events import Cancel, CustomBranchSummary

BRANCH_NAMES = sorted(p.name.split(".")[0] for p in GOLDEN.glob("*.branch.json.gz"))
PI_PREAMBLE_END = "Summary of that exploration:\n\n"
FIXTURES = Path(__file__).parent / "fixtures"


def pi_ids(session: Session):
    if session.version_on_disk not in (None, 1):
        return lambda entry_id: entry_id
    numbered = {e["id"]: f"{i + 1:08x}" for i, e in enumerate(session.entries())}
    return lambda entry_id: numbered.get(entry_id, entry_id)


@pytest.mark.parametrize("name", BRANCH_NAMES)
def test_branch_summary_placed_like_pi(name: str, tmp_path: Path) -> None:
    expected = golden(name, "branch")
    request = golden_request(name, "branch")
    file = copy_fixture(GEN / f"{name}.jsonl", tmp_path)
    session = Session.open(file)
    to_pi = pi_ids(session)
    from_pi = {to_pi(e["id"]): e["id"] for e in session.entries()}
    assert to_pi(session.leaf_id) == request["from"]
    summarizer = ScriptedSummarizer()
    outcome = navigate_tree(
        session,
        hooks_with(("scripted", summarizer)),
        settings(),
        from_pi.get(request["to"], request["to"]),
        summarize=True,
        label="golden",
    )
    assert outcome.status == "moved"
    assert outcome.common_ancestor_id == (
        from_pi.get(expected["commonAncestorId"]) if expected["commonAncestorId"] else None
    )
    assert [to_pi(i) for i in outcome.abandoned_entry_ids] == expected["entryIds"]
    assert outcome.editor_text == expected["navigation"]["editorText"]
    pi_summary, pi_label = expected["appendedEntries"]
    ours, label = outcome.summary_entry, outcome.label_entry
    assert ours is not None and label is not None
    assert list(ours) == list(pi_summary) and list(label) == list(pi_label)
    new_leaf = expected["navigation"]["newLeafId"]
    assert to_pi(ours["parentId"]) == pi_summary["parentId"] == new_leaf
    assert to_pi(ours["fromId"]) == pi_summary["fromId"]
    assert ours["fromHook"] is False
    assert {k: v for k, v in ours["details"].items() if k != "abandonedLeafId"} == (
        pi_summary["details"]
    )
    assert to_pi(ours["details"]["abandonedLeafId"]) == request["from"]
    if pi_summary["summary"] == NO_CONTENT:
        assert ours["summary"] == NO_CONTENT and summarizer.requests == []
    else:
        pi_body = pi_summary["summary"].split(PI_PREAMBLE_END, 1)[1]
        assert ours["summary"] == BRANCH_PREAMBLE + pi_body  # same text after the preamble
        (asked,) = summarizer.requests
        assert asked.kind == "branch" and asked.max_tokens == 2048
        assert len(asked.messages) == expected["prepared"]["messageCount"]  # all fit pi's budget
    assert (label["parentId"], label["targetId"], label["label"]) == (
        ours["id"],
        ours["id"],
        "golden",
    )
    if not any((e.get("message") or {}).get("role") == "assistant" for e in session.entries()):
        return  # pi's lazy persistence: no assistant message yet, nothing is written (pi too)
    reopened = Session.open(file)
    assert reopened.leaf_id == label["id"]
    context = reopened.build_context()
    golden_roles = [m["role"] for m in expected["contextAfter"]["messages"]]
    assert [m["role"] for m in context.messages] == golden_roles
    assert context.messages[-1]["summary"] == ours["summary"]


def _three_turn_session(tmp_path: Path) -> tuple[Session, Path, list[str]]:
    file = tmp_path / "s.jsonl"
    session = new_session(file)
    for n in range(3):
        add_round(session, n, words=10)
    users = [e["id"] for e in session.entries() if (e.get("message") or {}).get("role") == "user"]
    return session, file, users


def test_navigation_without_summary_survives_a_restart(tmp_path: Path) -> None:
    session, file, users = _three_turn_session(tmp_path)
    old_leaf = session.leaf_id
    target = session.get_entry(users[1])["parentId"]  # the end of the first turn
    outcome = navigate_tree(session, hooks_with(), settings(), target, label="checkpoint")
    assert outcome.status == "moved" and outcome.summary_entry is None
    assert outcome.label_entry["targetId"] == target
    reopened = Session.open(file)
    assert reopened.get_label(target) == "checkpoint"
    assert reopened.get_entry(reopened.leaf_id)["parentId"] == target or (
        reopened.leaf_id == outcome.new_leaf_id
    )
    assert old_leaf not in reopened.branch_ids()


def test_summarizing_toward_a_descendant_writes_no_summary(tmp_path: Path) -> None:
    """pi's behaviour (§13.4 #30): nothing was abandoned, so there is nothing to summarize."""
    session, _file, users = _three_turn_session(tmp_path)
    leaf = session.leaf_id
    session.branch(users[1])
    summarizer = ScriptedSummarizer()
    outcome = navigate_tree(
        session, hooks_with(("scripted", summarizer)), settings(), leaf, summarize=True
    )
    assert outcome.summary_entry is None and summarizer.requests == []
    assert session.leaf_id == leaf


def test_target_root_user_message_puts_the_summary_at_a_new_root(tmp_path: Path) -> None:
    session, file, users = _three_turn_session(tmp_path)
    assert session.get_entry(users[0])["parentId"] is None
    outcome = navigate_tree(
        session,
        hooks_with(("scripted", ScriptedSummarizer())),
        settings(),
        users[0],
        summarize=True,
    )
    entry = outcome.summary_entry
    assert entry["parentId"] is None and entry["fromId"] == "root"
    assert outcome.editor_text.startswith("round 0:")
    assert Session.open(file).leaf_id == entry["id"]


def test_noop_and_unknown_target(tmp_path: Path) -> None:
    session, file, _users = _three_turn_session(tmp_path)
    before = file.read_bytes()
    outcome = navigate_tree(session, hooks_with(), settings(), session.leaf_id, summarize=True)
    assert outcome.status == "noop"
    with pytest.raises(TetherError, match="no entry with id 'nope'"):
        navigate_tree(session, hooks_with(), settings(), "nope")
    assert file.read_bytes() == before


class TreeHooks:
    def __init__(self, answer=None, relabel: str | None = None) -> None:
        self.answer = answer
        self.relabel = relabel
        self.events: list = []
        self.after: list = []

    @hookimpl
    def session_before_tree(self, event):
        self.events.append(event)
        if self.relabel is not None:
            event.label = self.relabel
        return self.answer

    @hookimpl
    def session_tree(self, event):
        self.after.append(event)


def test_cancel_from_session_before_tree(tmp_path: Path) -> None:
    session, file, users = _three_turn_session(tmp_path)
    before = file.read_bytes()
    plugin, summarizer = TreeHooks(Cancel("stay here")), ScriptedSummarizer()
    outcome = navigate_tree(
        session,
        hooks_with(("s", summarizer), ("tree", plugin)),
        settings(),
        users[1],
        summarize=True,
    )
    assert (outcome.status, outcome.reason) == ("cancelled", "stay here")
    assert summarizer.requests == [] and plugin.after == []
    assert file.read_bytes() == before
    (event,) = plugin.events
    assert event.summarize and event.target_id == users[1]
    assert event.common_ancestor_id == users[1]  # the target is on the current branch
    assert event.entries_to_summarize[0]["parentId"] == users[1]
    assert event.entries_to_summarize[-1]["id"] == event.old_leaf_id


def test_custom_summary_and_relabel_from_the_hook(tmp_path: Path) -> None:
    session, _file, users = _three_turn_session(tmp_path)
    old_leaf = session.leaf_id
    plugin = TreeHooks(CustomBranchSummary("tried B", {"mine": 1}), relabel="from-hook")
    summarizer = ScriptedSummarizer()
    outcome = navigate_tree(
        session,
        hooks_with(("s", summarizer), ("tree", plugin)),
        settings(),
        users[2],
        summarize=True,
        label="from-cli",
    )
    entry = outcome.summary_entry
    assert (entry["summary"], entry["details"], entry["fromHook"]) == ("tried B", {"mine": 1}, True)
    assert summarizer.requests == []
    assert outcome.label_entry["label"] == "from-hook"
    (after,) = plugin.after
    assert after.old_leaf_id == old_leaf and after.summary_entry["id"] == entry["id"]
    assert after.new_leaf_id == session.leaf_id


def test_failing_summarizer_writes_nothing(tmp_path: Path) -> None:
    session, file, users = _three_turn_session(tmp_path)
    before = file.read_bytes()
    broken = ScriptedSummarizer(fail=ConnectionError("model unreachable"))
    with pytest.raises(TetherError) as caught:
        navigate_tree(session, hooks_with(("flaky", broken)), settings(), users[1], summarize=True)
    assert "plugin 'flaky'" in str(caught.value) and "model unreachable" in str(caught.value)
    assert file.read_bytes() == before


def test_branch_summary_lists_files_of_the_whole_abandoned_branch(tmp_path: Path) -> None:
    session, _file, users = _three_turn_session(tmp_path)
    summarizer = ScriptedSummarizer()
    outcome = navigate_tree(
        session,
        hooks_with(("s", summarizer)),
        settings(),
        users[1],
        summarize=True,
        custom_instructions="what broke?",
    )
    details = outcome.summary_entry["details"]
    assert details["readFiles"] == ["src/read_1.py", "src/read_2.py"]
    assert details["modifiedFiles"] == [
        "src/edit_1.py",
        "src/edit_2.py",
        "src/new_1.py",
        "src/new_2.py",
    ]
    (asked,) = summarizer.requests
    assert asked.custom_instructions == "what broke?"
    assert all(m["role"] != "toolResult" for m in asked.messages)  # pi leaves them out


def test_abort_while_summarizing_cancels_the_navigation(tmp_path: Path) -> None:
    from tether.hookspecs.abort import AbortSignal

    class Aborting:
        @hookimpl
        def register_summarizers(self, register):
            register("aborting", self.summarize, default=True)

        def summarize(self, request):
            request.signal.abort()
            raise RuntimeError("request aborted")

    session, file, users = _three_turn_session(tmp_path)
    before, leaf = file.read_bytes(), session.leaf_id
    outcome = navigate_tree(
        session,
        hooks_with(("aborting", Aborting())),
        settings(),
        users[1],
        summarize=True,
        signal=AbortSignal(),
    )
    assert (outcome.status, outcome.reason) == ("cancelled", "aborted")
    assert file.read_bytes() == before and session.leaf_id == leaf


BUDGET_CASES = {
    case["request"]["budget"]: case
    for case in json.loads(
        gzip.decompress((FIXTURES / "compaction" / "branch-budget.pi.json.gz").read_bytes())
    )
    if case["request"]["file"] == "compaction/branch-budget.jsonl"
}


@pytest.mark.parametrize("budget", [100, 300, 800, 2000])
def test_summary_input_is_what_fits_pis_budget(
    budget: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pi's prepareBranchEntries: the newest messages within the session model's
    ``contextWindow − branchSummary.reserveTokens``, file lists from what was walked (pi's
    recorded answers); nothing fits → "No content to summarize" with empty lists, as pi."""
    case = BUDGET_CASES[budget]
    home = tmp_path / "home"
    home.mkdir()
    window = 50000
    models = {"anthropic": {"models": [{"id": "claude-sonnet-4-5", "contextWindow": window}]}}
    (home / "models.json").write_text(json.dumps({"providers": models}), encoding="utf-8")
    monkeypatch.setenv("TETHER_HOME", str(home))
    session = Session.open(copy_fixture(FIXTURES / case["request"]["file"], tmp_path))
    session.branch(case["request"]["from"])
    summarizer = ScriptedSummarizer()
    outcome = navigate_tree(
        session,
        hooks_with(("scripted", summarizer)),
        Settings.model_validate({"branchSummary": {"reserveTokens": window - budget}}),
        case["request"]["to"],
        summarize=True,
    )
    assert outcome.abandoned_entry_ids == case["entryIds"]
    want = case["prepared"]
    details = outcome.summary_entry["details"]
    if want["messageCount"] == 0:
        assert want["fileOps"] != {"read": [], "written": [], "edited": []}  # walked, not kept
        assert outcome.summary_entry["summary"] == NO_CONTENT and summarizer.requests == []
        assert (details["readFiles"], details["modifiedFiles"]) == ([], [])
        return
    (asked,) = summarizer.requests
    assert [m.get("role") for m in asked.messages] == case["messageRoles"]
    assert [m.get("timestamp") for m in asked.messages] == case["messageTimestamps"]
    lists = want["fileLists"]
    assert (details["readFiles"], details["modifiedFiles"]) == (
        lists["readFiles"],
        lists["modifiedFiles"],
    )
    assert outcome.summary_entry["summary"].endswith(want["fileOpsText"])
