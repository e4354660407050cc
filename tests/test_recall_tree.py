"""``recall`` across the whole session tree (issue 25, item 6).

A real session file with two abandoned branches and two compactions, made by tether's own
navigation and compaction (offline summarizer), reopened from disk::

    u1 HERON - a1 -+- uP PETREL - aP                    branch left without a summary
                   +- u2 - a2 -+- u3 ALBATROSS - a3      left with branch summary S1
                               +- S1 - filler … C1 … filler … C2 … (active)

``recall`` finds the entries every compaction replaced on the active branch and the entries of
both abandoned branches; each hit names its branch and says whether it is the active one, and
the one left with a summary names that branch summary.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.compaction_helpers import settings
from tests.gate_helpers import assistant, filler_turns, text, user
from tether.builtin_plugins.tools.recall.tool import run_recall
from tether.core.hooks.facade import Hooks
from tether.core.hooks.plugin_session import PluginSession
from tether.core.host.manager import create_plugin_manager
from tether.core.memory.branching import navigate_tree
from tether.core.memory.compaction import compact
from tether.core.session.session import Session
from tether.hookspecs.tools import ToolContext, ToolError

OFFLINE = settings(summarizer="offline", keepRecentTokens=300)


def _append(session: Session, *messages: dict[str, Any]) -> list[str]:
    return [session.append_message(message) for message in messages]


def _hooks() -> Hooks:
    return Hooks(create_plugin_manager(environ={}))


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    file = tmp_path_factory.mktemp("recall-tree") / "s.jsonl"
    session = Session.open(file, create=True, cwd=str(file.parent))
    ids: dict[str, str] = {}
    ids["u1"], ids["a1"] = _append(
        session, user("Kickoff: the codename is HERON."), assistant([text("Noted.")])
    )
    ids["uP"], ids["aP"] = _append(
        session, user("Try the PETREL layout for the report."), assistant([text("PETREL done.")])
    )
    assert navigate_tree(session, _hooks(), OFFLINE, ids["a1"]).status == "moved"  # no summary
    ids["u2"], ids["a2"], ids["u3"], ids["a3"] = _append(
        session,
        user("Now the cache."),
        assistant([text("Which approach?")]),
        user("Try the ALBATROSS approach for caching."),
        assistant([text("ALBATROSS is slower; giving up on it.")]),
    )
    moved = navigate_tree(session, _hooks(), OFFLINE, ids["a2"], summarize=True)
    assert moved.summary_entry is not None
    ids["S1"] = moved.summary_entry["id"]
    compactions = []
    for start in (0, 6):
        _append(session, *filler_turns(6, start))
        outcome = compact(session, _hooks(), OFFLINE)
        assert outcome.status == "compacted", outcome.reason
        compactions.append(outcome.entry)
    _append(session, *filler_turns(2, 12))
    ids["C1"], ids["C2"] = (c["id"] for c in compactions)
    ids["kept"] = compactions[-1]["firstKeptEntryId"]
    return {"file": file, "ids": ids, "leaf": session.leaf_id}


def recall(tree: dict[str, Any], **args: Any) -> tuple[str, dict[str, Any]]:
    """``recall`` as the running agent calls it, on the session reopened from disk."""
    session = Session.open(tree["file"])
    assert session.leaf_id == tree["leaf"]
    view = PluginSession.reading(session, _hooks(), None, settings=OFFLINE)
    result = run_recall("call_1", args, ToolContext(cwd=str(tree["file"].parent), session=view))
    return result.content[0]["text"], result.details


def test_an_entry_replaced_on_the_active_branch_names_the_active_branch(
    tree: dict[str, Any],
) -> None:
    ids = tree["ids"]
    found, details = recall(tree, query="heron")
    assert found.splitlines()[0].startswith(f"Compaction {ids['C2']} replaced ")
    assert "Abandoned branches: " in found.splitlines()[0] and " on 2 branches." in found
    hit = details["hits"][0]
    assert hit == {"id": ids["u1"], "branch": tree["leaf"], "active": True, "compaction": ids["C2"]}
    assert f"[{ids['u1']}] user, line 1, " in found
    assert f"active branch, replaced by compaction {ids['C2']}: " in found


def test_an_abandoned_branch_is_named_with_its_branch_summary(tree: dict[str, Any]) -> None:
    ids = tree["ids"]
    found, details = recall(tree, query="albatross approach")
    (hit,) = [h for h in details["hits"] if h["id"] == ids["u3"]]
    assert hit == {
        "id": ids["u3"],
        "branch": ids["a3"],
        "active": False,
        "branchSummary": ids["S1"],
    }
    place = f"abandoned branch {ids['a3']} (summarized by branch summary {ids['S1']})"
    assert f"[{ids['u3']}] user, line 1, chars 0-39, {place}: " in found
    read, read_details = recall(tree, id=ids["a3"])
    assert read.startswith(f"[{ids['a3']}] assistant, lines 1-1 of 1, {place}:\n")
    assert "ALBATROSS is slower" in read and read_details["active"] is False


def test_a_branch_left_without_a_summary_is_searched_too(tree: dict[str, Any]) -> None:
    ids = tree["ids"]
    found, details = recall(tree, query="PETREL")
    assert [h["id"] for h in details["hits"]] == [ids["uP"], ids["aP"]]
    assert all(h["branch"] == ids["aP"] and h["active"] is False for h in details["hits"])
    assert "branchSummary" not in details["hits"][0]
    assert f"[{ids['uP']}] user, line 1, chars 0-37, abandoned branch {ids['aP']}: " in found


def test_entries_still_in_the_context_are_not_recalled(tree: dict[str, Any]) -> None:
    ids = tree["ids"]
    with pytest.raises(ToolError, match=f"Entry {ids['kept']} is not among the replaced"):
        recall(tree, id=ids["kept"])
    missing, details = recall(tree, query="no such word anywhere")
    assert 'No replaced or abandoned entry matches "no such word anywhere".' in missing
    assert details["matches"] == 0 and details["abandoned"] == 4


def test_a_file_without_branches_or_compactions(tmp_path: Path) -> None:
    session = Session.open(tmp_path / "s.jsonl", create=True, cwd=str(tmp_path))
    _append(session, user("HERON"), assistant([text("ok")]))
    view = PluginSession.reading(session, _hooks(), None, settings=OFFLINE)
    result = run_recall("c", {"query": "heron"}, ToolContext(cwd=str(tmp_path), session=view))
    assert result.content[0]["text"].startswith("Nothing was replaced: no compaction on the")
