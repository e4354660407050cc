"""The built-in ``recall`` tool over a real compacted session (issue 9, item 5).

Sessions are built and compacted by real ``tether`` subprocesses (faux provider, offline
summarizer); the model's ``recall`` calls come from a ``TETHER_FAUX_SCRIPT`` and the tool
results are read back from the session file. The span note is checked in a real request to
the loopback OpenAI server."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.cli_in_process import run_in_process
from tests.harness_helpers import chat_requests, read_entries, run_tether, session_files, write_home
from tests.store_helpers import copy_fixture

SECRET = "Remember: the secret word is PELICAN and we target Python 3.9."


def _run(home: Path, cwd: Path, *args: str, script: Any = None, process: bool = True) -> str:
    """``tether run ARGS``: a real process, or this one (``process=False``)."""
    env = {"TETHER_FAUX_SCRIPT": json.dumps(script)} if script is not None else None
    run = run_tether if process else run_in_process
    done = run("run", *args, home=home, cwd=cwd, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _build(home: Path, cwd: Path, *, compact: bool) -> Path:
    """Fourteen faux turns (the secret first, then filler), compacted keeping ~100 tokens; the
    turns after the first in one ``chat`` (one process instead of thirteen)."""
    cwd.mkdir(parents=True, exist_ok=True)
    _run(home, cwd, "--provider", "faux", SECRET)
    (file,) = session_files(home)
    prompts = ["filler " * 300, *(f"item {n} of the list" for n in range(12)), "/quit"]
    chat = run_tether(
        "chat", "--provider", "faux", "--session", str(file),
        home=home, cwd=cwd, stdin_text="".join(f"{line}\n" for line in prompts),
    )  # fmt: skip
    assert chat.returncode == 0, chat.stderr
    assert chat.stdout.count("You said: ") == 13, chat.stdout
    if compact:
        args = ("session", "compact", str(file), "--summarizer", "offline", "--keep", "100")
        done = run_tether(*args, home=home, cwd=cwd)
        assert done.returncode == 0, done.stderr
    return file


@pytest.fixture(scope="module")
def compacted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("recall")
    return root, _build(root / "home", root / "proj", compact=True)


def _copy(compacted: tuple[Path, Path], tmp_path: Path) -> tuple[Path, Path]:
    root, file = compacted
    home = tmp_path / "home"
    shutil.copytree(root / "home", home)
    return home, home / file.relative_to(root / "home")


def _recall(home: Path, file: Path, *calls: dict[str, Any], process: bool = False) -> list[str]:
    """Run one faux turn whose model calls ``recall`` with each of ``calls``; the results
    (the turn runs in this process unless ``process``)."""
    before = len(read_entries(file))
    steps: list[Any] = [{"toolCalls": [{"name": "recall", "arguments": c}]} for c in calls]
    _run(
        home,
        file.parent,
        "--provider",
        "faux",
        "--session",
        str(file),
        "recall",
        script=[*steps, "ok"],
        process=process,
    )
    results = []
    for entry in read_entries(file)[before:]:
        message = entry.get("message") or {}
        if message.get("role") == "toolResult":
            assert message["toolName"] == "recall"
            results.append(message["content"][0]["text"])
    assert len(results) == len(calls)
    return results


def _replaced_ids(file: Path) -> list[str]:
    entries = read_entries(file)
    compaction = [e for e in entries if e.get("type") == "compaction"][-1]
    ids = [e["id"] for e in entries if e.get("type") == "message"]
    return ids[: ids.index(compaction["firstKeptEntryId"])]


def test_a_query_finds_a_replaced_entry(compacted: tuple[Path, Path], tmp_path: Path) -> None:
    home, file = _copy(compacted, tmp_path)
    replaced = _replaced_ids(file)
    secret_id = replaced[0]
    (text,) = _recall(home, file, {"query": "pelican"}, process=True)  # a real process
    assert f"[{secret_id}] user, line 1, chars 0-" in text
    assert "the secret word is PELICAN" in text
    assert f"replaced {len(replaced)} entries ({replaced[0]} … {replaced[-1]})" in text
    (words,) = _recall(home, file, {"query": "python pelican"})  # all words, any order
    assert f"[{secret_id}] user" in words


def test_paging_and_reading_by_id(compacted: tuple[Path, Path], tmp_path: Path) -> None:
    home, file = _copy(compacted, tmp_path)
    first, second, by_id, by_line = _recall(
        home,
        file,
        {"query": "item", "limit": 2},
        {"query": "item", "limit": 2, "offset": 2},
        {"id": _replaced_ids(file)[2]},
        {"id": _replaced_ids(file)[0], "offset": 2},
    )
    assert "(showing 1-2)" in first and "use offset=2 to continue" in first
    assert "(showing 3-4)" in second
    assert first.count("] user,") + first.count("] assistant,") == 2
    assert set(first.splitlines()[2:4]).isdisjoint(second.splitlines()[2:4])
    assert "filler filler" in by_id and "lines 1-1 of 1" in by_id
    assert "Offset 2 is beyond the end" in by_line


def test_no_match_and_unknown_id(compacted: tuple[Path, Path], tmp_path: Path) -> None:
    home, file = _copy(compacted, tmp_path)
    missing, unknown = _recall(home, file, {"query": "albatross"}, {"id": "nope1234"})
    assert 'No replaced or abandoned entry matches "albatross".' in missing
    assert "Entry nope1234 is not among the replaced entries" in unknown


def test_a_session_without_compaction(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (tmp_path / "proj").mkdir()
    _run(home, tmp_path / "proj", "--provider", "faux", SECRET)
    (file,) = session_files(home)
    (text,) = _recall(home, file, {"query": "pelican"})
    assert text.startswith("Nothing was replaced: no compaction on the current branch")


def test_the_summary_sent_names_the_replaced_span(
    compacted: tuple[Path, Path], tmp_path: Path, openai_server: Any
) -> None:
    home, file = _copy(compacted, tmp_path)
    stored = file.read_bytes()
    write_home(home, openai_server)
    openai_server.text("fine")
    _run(home, file.parent, "--provider", "loop", "--session", str(file), "go on")
    replaced = _replaced_ids(file)
    first = chat_requests(openai_server)[-1]["messages"][1]
    note = f"(Entries {replaced[0]} … {replaced[-1]} ({len(replaced)} entries) were replaced"
    assert note in json.dumps(first, ensure_ascii=False)
    assert file.read_bytes().startswith(stored)  # the stored summary is unchanged
    assert note not in file.read_text()


def _branch(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    by_id = {e.get("id"): e for e in entries if e.get("type") != "session"}
    path, entry = [], entries[-1]
    while entry is not None:
        path.append(entry)
        entry = by_id.get(entry.get("parentId"))
    return path[::-1]


def test_a_pi_session_with_several_compactions(tmp_path: Path) -> None:
    """pi's compactions: the span is everything before the latest one's first kept entry."""
    file = copy_fixture("g21-compaction-multi.jsonl", tmp_path)
    branch = _branch(read_entries(file))
    compactions = [i for i, e in enumerate(branch) if e.get("type") == "compaction"]
    assert len(compactions) > 1
    latest = branch[compactions[-1]]
    ids = [e["id"] for e in branch]
    cut = ids.index(latest["firstKeptEntryId"])
    previous_kept = ids.index(branch[compactions[-2]]["firstKeptEntryId"])
    assert previous_kept < cut
    old = branch[previous_kept]  # kept by the previous compaction, replaced by the latest
    old_text = old["message"]["content"][0]["text"]
    (found, read) = _recall(
        tmp_path / "home", file, {"query": old_text.upper()}, {"id": branch[1]["id"]}
    )
    assert f"Compaction {latest['id']} replaced" in found
    assert found.splitlines()[2].startswith(f"[{old['id']}] ")  # the exact match comes first
    assert f"[{branch[1]['id']}] " in read and "lines 1-" in read
    kept = branch[cut]
    (missing,) = _recall(tmp_path / "home", file, {"id": kept["id"]})
    assert f"Entry {kept['id']} is not among the replaced entries" in missing
