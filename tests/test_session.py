"""The session tree: appends, leaf movement, labels, names, context, navigation, fork/clone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.store_helpers import (
    CORPUS,
    STORE_PI,
    assistant_message,
    copy_fixture,
    golden,
    lines_of,
    user_message,
)
from tether.builtin_plugins.commands.session.file_copies import export_jsonl, fork_from
from tether.builtin_plugins.commands.session.tree_json import tree_json
from tether.builtin_plugins.commands.session.tree_nodes import build_tree
from tether.core.base.errors import TetherError
from tether.core.context.build import build_session_context
from tether.core.session.session import LEAF_MARKER, Session


def _conversation(session: Session, turns: int) -> list[str]:
    ids = []
    for i in range(turns):
        ids.append(session.append_message(user_message(f"q{i}", 1000 * i)))
        ids.append(session.append_message(assistant_message(f"a{i}", 1000 * i + 1)))
    return ids


def test_context_equals_pis_golden_and_the_full_path_builder() -> None:
    # build_context parses only what can matter; the result must be exactly pi's
    for path in CORPUS:
        session = Session.open(path, readonly=True)
        expected = golden(path.stem, "context")
        context = session.build_context()
        assert context.messages == expected["messages"], path.stem
        assert context.thinking_level == expected["thinkingLevel"], path.stem
        assert context.model == expected["model"], path.stem
        full = build_session_context(session.entries(), session.leaf_id)
        assert (full.messages, full.thinking_level, full.model) == (
            context.messages,
            context.thinking_level,
            context.model,
        )


def test_appends_chain_from_the_leaf_and_branch_resets(tmp_path: Path) -> None:
    session = Session.create("/proj", tmp_path)
    ids = _conversation(session, 3)
    assert session.branch_ids() == ids
    assert [e["id"] for e in session.get_branch(ids[1])] == ids[:2]
    session.branch(ids[1])
    side = session.append_message(user_message("other way"))
    assert session.get_entry(side)["parentId"] == ids[1]
    assert [e["id"] for e in session.get_children(ids[1])] == [ids[2], side]
    session.reset_leaf()
    root = session.append_thinking_level_change("low")
    assert session.get_entry(root)["parentId"] is None
    assert [n.id for n in build_tree(session)] == [ids[0], root]
    with pytest.raises(TetherError, match="Entry nope not found"):
        session.branch("nope")
    assert session.get_branch("nope") == []
    assert [e["id"] for e in session.get_branch(None)] == [root]  # None: the leaf, as in pi


def test_branch_with_summary_writes_fromid_as_pi_does(tmp_path: Path) -> None:
    session = Session.create("/proj", tmp_path)
    ids = _conversation(session, 2)
    summary_id = session.branch_with_summary(ids[1], "tried something", {"readFiles": []}, True)
    entry = session.get_entry(summary_id)
    assert entry["parentId"] == ids[1] and entry["fromId"] == ids[1]  # the new position
    assert list(entry) == [
        "type",
        "id",
        "parentId",
        "timestamp",
        "fromId",
        "summary",
        "details",
        "fromHook",
    ]
    root_summary = session.branch_with_summary(None, "from the top")
    assert session.get_entry(root_summary)["fromId"] == "root"
    assert session.get_entry(root_summary)["parentId"] is None
    messages = session.build_context().messages
    assert [m["role"] for m in messages] == ["branchSummary"]


def test_labels_last_wins_and_clear_with_timestamps(tmp_path: Path) -> None:
    session = Session.create("/proj", tmp_path)
    ids = _conversation(session, 2)
    session.append_label_change(ids[0], "first")
    session.append_label_change(ids[1], "keep")
    session.append_label_change(ids[0], "second")
    assert session.get_label(ids[0]) == "second"
    session.append_label_change(ids[1], None)
    assert session.get_label(ids[1]) is None and list(session.labels()) == [ids[0]]
    session.append_label_change(ids[1], "")
    assert ids[1] not in session.labels()
    stamps = session.label_timestamps()
    label_entries = [e for e in session.entries() if e["type"] == "label"]
    assert stamps[ids[0]] == label_entries[2]["timestamp"]
    with pytest.raises(TetherError, match="not found"):
        session.append_label_change("missing", "x")
    reloaded = Session.open(session.file) if session.file and session.file.exists() else session
    assert reloaded.labels() == session.labels()


def test_session_name_last_entry_wins_and_empty_clears(tmp_path: Path) -> None:
    session = Session.create("/proj", tmp_path)
    _conversation(session, 1)
    assert session.session_name is None
    session.append_session_info("  First  ")
    assert session.session_name == "First"
    session.append_session_info("Second")
    session.branch(session.branch_ids()[0])  # not branch-aware, like pi
    assert session.session_name == "Second"
    session.append_session_info("   ")
    assert session.session_name is None
    assert (
        golden("g12-labels", "tree")["sessionName"]
        == Session.open(
            next(p for p in CORPUS if p.stem == "g12-labels"), readonly=True
        ).session_name
    )


def test_walks_are_linear_and_stop_at_cycles(tmp_path: Path) -> None:
    header = {
        "type": "session",
        "version": 3,
        "id": "s",
        "timestamp": "2025-01-01T00:00:00.000Z",
        "cwd": "/p",
    }
    lines = [json.dumps(header)]
    depth = 30000
    for i in range(depth):
        lines.append(
            json.dumps(
                {
                    "type": "custom",
                    "customType": "x",
                    "id": f"e{i}",
                    "parentId": f"e{i - 1}" if i else None,
                    "timestamp": "2025-01-01T00:00:00.000Z",
                },
                separators=(",", ":"),
            )
        )
    # a cycle: c1 -> c2 -> c1
    for a, b in (("c1", "c2"), ("c2", "c1")):
        lines.append(
            json.dumps(
                {
                    "type": "label",
                    "id": a,
                    "parentId": b,
                    "timestamp": "2025-01-01T00:00:00.000Z",
                    "targetId": "e0",
                }
            )
        )
    path = tmp_path / "deep.jsonl"
    path.write_text("\n".join(lines) + "\n")
    session = Session.open(path, readonly=True)
    session.branch(f"e{depth - 1}")
    assert len(session.branch_ids()) == depth
    assert session.branch_ids("c2") == ["c1", "c2"]
    assert any(p.kind == "cycle" for p in session.problems)
    assert session.build_context("c1").messages == []
    tree = tree_json(session)
    assert "c1" not in tree["preorder"]  # unreachable, as in pi (which would not hang here)


def test_navigation_survives_a_restart_in_tether_and_in_pi(tmp_path: Path) -> None:
    # §8.7: pi takes the last entry as the leaf, so tether appends a context-neutral marker under
    # the chosen entry. The fixture file was written by tether's navigate(); its pi context is
    # the oracle's output for it (tests/fixtures/store_pi/navigate-pi-context.json).
    pi = json.loads((STORE_PI / "navigate-pi-context.json").read_text(encoding="utf-8"))
    fixture = Session.open(STORE_PI / "navigate-tether.jsonl", readonly=True)
    marker = fixture.get_entry(pi["leafId"])
    assert marker["customType"] == LEAF_MARKER  # pi's leaf: the marker
    assert fixture.leaf_id == marker["parentId"]  # tether's leaf: the chosen entry
    assert fixture.build_context().messages == pi["messages"]  # same context in both
    # and the same with a fresh session
    session = Session.create("/proj", tmp_path)
    ids = _conversation(session, 3)
    before = session.build_context(ids[1]).messages
    marker_id = session.navigate(ids[1])
    assert marker_id is not None and session.leaf_id == ids[1]
    assert session.navigate(ids[1]) is None  # already where a reload lands
    reloaded = Session.open(session.file)
    assert reloaded.leaf_id == ids[1]
    assert reloaded.build_context().messages == before
    assert reloaded.build_context(marker_id).messages == before  # pi's view of the same file
    next_id = reloaded.append_message(user_message("continue from here"))
    assert reloaded.get_entry(next_id)["parentId"] == ids[1]


def test_fork_keeps_the_parent_chain_where_pi_breaks_it(tmp_path: Path) -> None:
    # §8.6 / pi §13.1 #9: pi drops label entries and leaves parentIds dangling
    pi = json.loads((STORE_PI / "fork-pi.json").read_text(encoding="utf-8"))
    pi_branched = Session.open(STORE_PI / "fork-pi-branched.jsonl", readonly=True)
    assert len(pi_branched.build_context().messages) == pi["branchedContextMessages"] == 2
    source_path = tmp_path / "source.jsonl"
    source_path.write_bytes((STORE_PI / "fork-source.jsonl").read_bytes())
    source = Session.open(source_path)
    assert len(source.build_context().messages) == pi["sourceContextMessages"] == 4
    clone = source.clone(pi["leaf"])
    assert clone.file is not None and clone.file.exists()  # has an assistant: written now
    reopened = Session.open(clone.file)
    assert len(reopened.build_context().messages) == 4  # tether keeps the chain
    assert reopened.header["parentSession"] == str(source_path)
    assert reopened.labels() == source.labels()
    kept = [e for e in reopened.entries() if e["type"] != "label"]
    assert all(e["parentId"] in (None, *[k["id"] for k in kept]) for e in kept)
    assert [e["type"] for e in reopened.entries()][-1] == "label"
    assert reopened.label_timestamps() == source.label_timestamps()


def test_fork_before_a_user_message(tmp_path: Path) -> None:
    session = Session.create("/proj", tmp_path)
    ids = _conversation(session, 3)
    forked, text = session.fork(ids[4], position="before")
    assert text == "q2"
    assert forked.branch_ids() == ids[:4] and forked.file != session.file
    with pytest.raises(TetherError, match="Invalid entry ID for forking"):
        session.fork(ids[1], position="before")
    first, text = session.fork(ids[0], position="before")
    assert len(first) == 0 and text == "q0"
    assert first.header["parentSession"] == str(session.file)


def test_a_copy_without_assistant_is_written_lazily_and_once(tmp_path: Path) -> None:
    session = Session.create("/proj", tmp_path)
    ids = _conversation(session, 1)
    clone = session.clone(ids[0])  # only the user message: pi's lazy rule, no file yet
    assert clone.file is not None and not clone.file.exists()
    clone.append_message(assistant_message("answer"))
    records = [json.loads(line) for line in lines_of(clone.file)]
    assert [r["type"] for r in records] == ["session", "message", "message"]


def test_export_linearises_the_branch(tmp_path: Path) -> None:
    path = copy_fixture("g16-branched.jsonl", tmp_path)
    session = Session.open(path, readonly=True)
    out = export_jsonl(session, tmp_path / "export.jsonl")
    records = [json.loads(line) for line in lines_of(out)]
    header, entries = records[0], records[1:]
    assert header["id"] == session.session_id and "parentSession" not in header
    assert [e["id"] for e in entries] == session.branch_ids()
    assert [e["parentId"] for e in entries] == [None, *[e["id"] for e in entries[:-1]]]
    with pytest.raises(TetherError, match="already exists"):
        export_jsonl(session, out)


def test_cross_project_fork_migrates_the_source_first(tmp_path: Path) -> None:
    # pi §13.1 #7 copies v1 records raw under a v3 header; tether migrates them
    source = copy_fixture("e35-legacy-v1.jsonl", tmp_path)
    original = source.read_bytes()
    forked = fork_from(source, "/elsewhere", tmp_path / "target")
    assert source.read_bytes() == original  # the source is not touched
    assert forked.header["cwd"] == "/elsewhere"
    assert forked.header["parentSession"] == str(source)
    entries = forked.entries()
    assert entries and all("id" in e and "parentId" in e for e in entries)
    expected = golden("e35-legacy-v1", "context")
    assert len(forked.build_context().messages) == len(expected["messages"])
    with pytest.raises(TetherError):
        fork_from(tmp_path / "missing.jsonl", "/x", tmp_path / "t2")


def test_new_session_records_its_parent(tmp_path: Path) -> None:
    session = Session.create("/proj", tmp_path)
    _conversation(session, 1)
    child = session.new_session(parent_session=str(session.file))
    assert child.header["parentSession"] == str(session.file)
    assert child.session_dir == session.session_dir and child.cwd == "/proj"
    memory = Session.in_memory("/m")
    memory.append_message(assistant_message("never written"))
    assert memory.file is None and memory.new_session().file is None
