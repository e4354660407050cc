"""``tether session fork|clone|export|repair --json``, ``show --validate``'s exit code, export's
default place and id, unknown names (ids, plugins, folders, models, summarizers) and
``branch --summarize`` with nothing to summarize — the first command of each kind as a real
process, the others of the same path in the test's process (tests/cli_in_process.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.cli_in_process import run_in_process as here
from tests.store_helpers import GEN, assistant_message, run_tether, user_message
from tether.core.session.session import Session

BAD_VALUES = Path(__file__).parent / "fixtures" / "bad_values"


def _source(folder: Path) -> tuple[Session, list[str]]:
    session = Session.create("/proj", folder)
    ids = []
    for i in range(2):
        ids.append(session.append_message(user_message(f"q{i}", i)))
        ids.append(session.append_message(assistant_message(f"a{i}", i)))
    return session, ids


def test_fork_clone_export_and_repair_print_json(tmp_path: Path) -> None:
    source, ids = _source(tmp_path / "s")
    path = str(source.file)
    forked = run_tether("session", "fork", path, "--before", ids[2], "--json")
    assert forked.returncode == 0, forked.stderr
    fork = json.loads(forked.stdout)
    assert fork["parentSession"] == path and fork["forkedText"] == "q1"
    assert fork["sessionId"] == Session.open(fork["file"]).session_id != source.session_id
    assert fork["entryCount"] == 2 and fork["leafId"] == ids[1]
    cloned = json.loads(here("session", "clone", path, "--json").stdout)
    assert cloned["entryCount"] == 4 and cloned["leafId"] == ids[3]
    out = tmp_path / "e.jsonl"
    exported = json.loads(here("session", "export", path, "-o", str(out), "--json").stdout)
    assert exported["file"] == str(out) and exported["entryCount"] == 4
    assert exported["sessionId"] != source.session_id and exported["parentSession"] == path
    damaged = tmp_path / "damaged.jsonl"
    shutil.copyfile(GEN / "e37-malformed-lines.jsonl", damaged)
    repaired = run_tether("session", "repair", str(damaged), "--json")
    assert repaired.returncode == 0, repaired.stderr
    report = json.loads(repaired.stdout)
    assert report["changed"] is True and report["movedLines"] and Path(report["sidecar"]).exists()
    again = json.loads(here("session", "repair", str(damaged), "--json").stdout)
    assert again["changed"] is False and again["movedLines"] == []


def test_export_without_output_goes_next_to_the_source_with_a_new_id(tmp_path: Path) -> None:
    source, _ = _source(tmp_path / "sessions")
    cwd = tmp_path / "project"
    cwd.mkdir()
    done = run_tether("session", "export", str(source.file), cwd=cwd)
    assert done.returncode == 0, done.stderr
    written = Path(done.stdout.strip())
    assert list(cwd.iterdir()) == []  # nothing in the project folder
    assert written.parent == source.file.parent and written != source.file
    header = json.loads(written.read_text().splitlines()[0])
    assert header["id"] != source.session_id and header["id"] in written.name
    assert header["parentSession"] == str(source.file)
    assert Session.open(written).branch_ids() == source.branch_ids()


def test_validate_exits_non_zero_on_problems_and_never_says_none_above_a_list(
    tmp_path: Path,
) -> None:
    broken = tmp_path / "broken.jsonl"
    shutil.copyfile(BAD_VALUES / "user-content-object.jsonl", broken)
    shown = run_tether("session", "show", "--validate", str(broken), cwd=tmp_path)
    assert shown.returncode == 1 and "problems:  1" in shown.stdout
    as_json = here("session", "show", "--validate", "--json", str(broken), cwd=tmp_path)
    assert as_json.returncode == 1 and json.loads(as_json.stdout)["schemaProblems"]
    assert here("session", "show", str(broken), cwd=tmp_path).returncode == 0
    odd = tmp_path / "odd.jsonl"
    shutil.copyfile(BAD_VALUES / "lone-surrogates.jsonl", odd)
    warned = here("session", "show", "--validate", str(odd), cwd=tmp_path)
    assert warned.returncode == 0, warned.stderr  # warnings are not problems
    assert "problems:  none" not in warned.stdout and "warnings: 4" in warned.stdout
    clean = here("session", "show", "--validate", str(GEN / "g12-labels.jsonl"))
    assert clean.returncode == 0 and "problems:  none" in clean.stdout


def test_unknown_names_are_said_clearly(tmp_path: Path) -> None:
    source, ids = _source(tmp_path / "s")
    path = str(source.file)
    unknown = run_tether("session", "fork", path, "--before", "zzzz")
    assert unknown.returncode == 2
    assert unknown.stderr == f"tether: error: {path}: --before: no entry with id 'zzzz'\n"
    not_user = here("session", "fork", path, "--before", ids[1])
    assert "is not a user message" in not_user.stderr and not_user.returncode != 0
    plugin = run_tether("--disable-plugin", "nosuch", "sessions", "--dir", str(tmp_path / "s"))
    assert plugin.returncode == 0
    assert "tether: warning: --disable-plugin nosuch: no plugin of that name" in plugin.stderr
    assert "session_commands" in plugin.stderr  # the plugins there are
    folder = here("sessions", "--dir", str(tmp_path / "nonexistent"))
    assert folder.returncode == 0
    assert f"tether: warning: --dir {tmp_path / 'nonexistent'}: no such folder" in folder.stderr
    home = tmp_path / "home"
    model = run_tether("run", "--model", "nosuch/model", "hi", env={"TETHER_HOME": str(home)})
    assert model.returncode != 0 and "<provider>" not in model.stderr
    assert "unknown provider 'nosuch'" in model.stderr and "faux" in model.stderr
    close = here("run", "--model", "gpt4o", "hi", env={"TETHER_HOME": str(home)})
    assert "did you mean openai/gpt-4o" in close.stderr


def test_summarizer_flags_and_an_empty_branch_summary(tmp_path: Path) -> None:
    source, ids = _source(tmp_path / "s")
    path = str(source.file)
    source.branch(ids[1])
    source.append_label_change(ids[1], "mark")  # the branch left holds no message
    before = source.file.read_bytes()
    lonely = here("session", "branch", path, "--to", ids[3], "--summarizer", "offline")
    assert lonely.returncode == 2 and "--summarizer needs --summarize" in lonely.stderr
    wrong = here("session", "compact", path, "--summarizer", "nosuch")
    assert wrong.returncode != 0 and "setting" not in wrong.stderr
    assert "--summarizer" in wrong.stderr and "offline" in wrong.stderr and "llm" in wrong.stderr
    assert source.file.read_bytes() == before
    moved = run_tether("session", "branch", path, "--to", ids[1], "--summarize")
    assert moved.returncode == 0, moved.stderr
    assert "no summary: nothing to summarize" in moved.stdout
    assert "(summarizer: )" not in moved.stdout
    entries = [json.loads(line) for line in source.file.read_text().splitlines()]
    assert not any(e["type"] == "branch_summary" for e in entries)
    assert Session.open(source.file).leaf_id == ids[1]
