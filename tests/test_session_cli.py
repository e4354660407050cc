"""``tether sessions`` and ``tether session show|fork|clone|export`` as real processes."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from tests.cli_in_process import run_in_process
from tests.store_helpers import GEN, assistant_message, golden, run_tether, user_message
from tether.builtin_plugins.storage.jsonl.listing import most_recent_session
from tether.core.base.paths import default_session_dir, encode_cwd
from tether.core.session.session import Session


def _make(folder: Path, cwd: str, text: str, ts: int, name: str | None = None) -> Session:
    session = Session.create(cwd, folder)
    session.append_message(user_message(text, ts))
    session.append_message(assistant_message(f"re: {text}", ts + 1))
    if name:
        session.append_session_info(name)
    return session


def test_sessions_lists_this_project_most_recent_first(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    folder = default_session_dir(str(project), home)
    assert folder == home / "sessions" / encode_cwd(str(project))
    old = _make(folder, str(project), "old question", 1_700_000_000_000)
    time.sleep(0.01)
    long_cwd = str(project) + "/" + "x" * 600  # pi's --continue misses headers > 512 bytes
    longest = _make(folder, long_cwd, "long header", 1_700_000_000_500)
    time.sleep(0.01)
    new = _make(folder, str(project), "new question", 1_700_000_100_000, name="Named")
    os.utime(old.file, (time.time() + 100, time.time() + 100))  # mtime is not the measure
    _make(default_session_dir("/elsewhere", home), "/elsewhere", "other project", 1)
    env = {"TETHER_HOME": str(home)}
    result = run_tether("sessions", "--json", cwd=project, env=env)
    assert result.returncode == 0, result.stderr
    listed = json.loads(result.stdout)
    assert [s["path"] for s in listed] == [str(s.file) for s in (new, longest, old)]
    first = listed[0]
    assert first["id"] == new.session_id and first["name"] == "Named"
    assert first["messageCount"] == 2 and first["firstMessage"] == "new question"
    assert first["allMessagesText"] == "new question re: new question"
    assert first["cwd"] == str(project) and first["created"] == new.header["timestamp"]
    assert set(first) == {
        "path",
        "id",
        "cwd",
        "name",
        "created",
        "modified",
        "messageCount",
        "firstMessage",
        "allMessagesText",
    }
    assert most_recent_session(folder) == new.file  # the same notion as the list
    every = json.loads(run_in_process("sessions", "--all", "--json", cwd=project, env=env).stdout)
    assert len(every) == 4 and {s["cwd"] for s in every} >= {"/elsewhere", str(project)}
    flat = json.loads(run_in_process("sessions", "--dir", str(folder), "--json", env=env).stdout)
    assert [s["path"] for s in flat] == [s["path"] for s in listed]
    text = run_tether("sessions", cwd=project, env=env).stdout
    assert "Named" in text and str(new.file) in text
    empty = run_in_process("sessions", cwd=tmp_path, env=env)
    assert empty.returncode == 0 and "No sessions" in empty.stdout


def test_show_reports_counts_name_leaf_and_problems() -> None:
    path = GEN / "g12-labels.jsonl"
    result = run_tether("session", "show", str(path), "--json", "--validate")
    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout)
    tree = golden("g12-labels", "tree")
    assert shown["entryCount"] == tree["entryCount"] and shown["leafId"] == tree["leafId"]
    assert shown["sessionName"] == tree["sessionName"] and shown["labels"] == tree["labels"]
    kinds = [e["type"] for e in tree["entries"]]
    assert shown["types"] == {k: kinds.count(k) for k in sorted(set(kinds))}
    assert shown["problems"] == [] and shown["schemaProblems"] == []
    text = run_in_process("session", "show", str(path)).stdout
    assert "problems:  none" in text and tree["leafId"] in text
    legacy = json.loads(
        run_in_process("session", "show", str(GEN / "e35-legacy-v1.jsonl"), "--json").stdout
    )
    assert legacy["versionOnDisk"] == 1 and "migrated" in legacy["notes"][0]


def test_fork_clone_and_export_write_new_files(tmp_path: Path) -> None:
    source = Session.create("/proj", tmp_path / "s")
    ids = []
    for i in range(3):
        ids.append(source.append_message(user_message(f"q{i}", i)))
        ids.append(source.append_message(assistant_message(f"a{i}", i)))
    source.append_label_change(ids[1], "mark")
    path = str(source.file)
    forked = run_tether("session", "fork", path, "--before", ids[4])
    assert forked.returncode == 0, forked.stderr
    assert "q2" in forked.stderr
    fork_session = Session.open(forked.stdout.strip())
    assert fork_session.branch_ids()[:4] == ids[:4] and fork_session.labels() == {ids[1]: "mark"}
    assert fork_session.header["parentSession"] == path
    out = tmp_path / "clone.jsonl"
    cloned = run_tether("session", "clone", path, "--at", ids[3], "-o", str(out))
    assert cloned.returncode == 0 and cloned.stdout.strip() == str(out)
    assert Session.open(out).branch_ids()[:4] == ids[:4]
    again = run_tether("session", "clone", path, "-o", str(out))
    assert again.returncode != 0 and "already exists" in again.stderr
    exported = run_tether("session", "export", path, "-o", str(tmp_path / "e.jsonl"))
    assert exported.returncode == 0
    lines = [json.loads(x) for x in (tmp_path / "e.jsonl").read_text().splitlines()]
    assert [r["id"] for r in lines[1:]] == source.branch_ids()
    assert os.path.getsize(path) == source.file.stat().st_size  # the source is unchanged
