"""``tether chat`` as a real subprocess: streamed answers, slash commands, Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.harness_helpers import NO_THIRD_PARTY, REPO, read_entries, run_tether, write_home
from tether.core.session.session import Session

FAUX = ["--provider", "faux"]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return write_home(
        tmp_path / "home",
        settings={"compaction": {"summarizer": "offline", "keepRecentTokens": 10}},
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    return project


def chat(home: Path, cwd: Path, lines: list[str], *args: str, env=None):
    return run_tether(
        "chat", *FAUX, *args, home=home, cwd=cwd, env=env, stdin_text="\n".join(lines) + "\n"
    )


def files(home: Path) -> list[Path]:
    return sorted((home / "sessions").glob("*/*.jsonl"), key=lambda p: p.stat().st_mtime)


def test_chat_streams_answers_and_runs_commands(home, project):
    done = chat(
        home,
        project,
        ["hello there", "/session", "/name my work", "/tree", "second prompt", "/compact", "/quit"],
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "You said: hello there\nYou said: second prompt\n"
    err = done.stderr
    assert "tether chat · faux/faux-1 (thinking medium)" in err
    assert "context: 2 messages" in err and "name: my work" in err
    assert "user: hello there" in err  # the tree listing
    assert "compacted:" in err  # progress indicator + result on stderr
    [file] = files(home)
    entries = read_entries(file)
    assert [e["type"] for e in entries].count("compaction") == 1
    assert any(e["type"] == "session_info" and e["name"] == "my work" for e in entries)


def test_tree_fork_clone_new_and_resume(home, project):
    first = chat(home, project, ["one", "two", "/quit"])
    assert first.returncode == 0, first.stderr
    [original] = files(home)
    entries = read_entries(original)
    user_two = [
        e["id"]
        for e in entries
        if e.get("message", {}).get("content") == [{"type": "text", "text": "two"}]
    ][0]
    answer_one = [e["id"] for e in entries if e.get("message", {}).get("role") == "assistant"][0]

    done = chat(
        home,
        project,
        [
            f"/tree {answer_one} --summarize",
            "three",
            f"/label {answer_one} checkpoint",
            f"/fork {user_two}",
            "/clone",
            "/new",
            "four",
            "/resume",
            "3",
            "/session",
            "/quit",
        ],
        "--session",
        str(original),
    )
    assert done.returncode == 0, done.stderr
    assert "branch summary: entry" in done.stderr
    assert "(to resend) two" in done.stderr
    assert "forked into" in done.stderr and "cloned into" in done.stderr
    context = Session.open(original).build_context().messages
    assert [m["role"] for m in context] == [
        "user",
        "assistant",
        "branchSummary",
        "user",
        "assistant",
    ]
    assert len(files(home)) == 4  # original, fork, clone, new ("four")
    assert "resumed" in done.stderr


def test_ctrl_c_aborts_the_turn_not_the_program(home, project):
    script = [{"text": "z" * 3000, "chunkDelayMs": 10}, "second answer"]
    env = {
        **os.environ,
        "TETHER_HOME": str(home),
        "TETHER_FSYNC": "0",
        "PYTHONPATH": str(REPO),
        "TETHER_FAUX_SCRIPT": json.dumps(script),
        **NO_THIRD_PARTY,
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "tether", "chat", *FAUX],
        cwd=project,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("write a lot\n")
    proc.stdin.flush()
    assert proc.stdout.read(1) == "z"  # the answer is streaming
    proc.send_signal(signal.SIGINT)
    proc.stdin.write("again\n/quit\n")
    proc.stdin.flush()
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "(aborted)" in err and "Traceback" not in err
    assert out.endswith("\nsecond answer\n")  # the next prompt ran normally
    [file] = files(home)
    messages = Session.open(file).build_context().messages
    assert [m.get("stopReason") for m in messages if m["role"] == "assistant"] == [
        "aborted",
        "stop",
    ]
    assert 0 < len(messages[1]["content"][0]["text"]) < 3000


def test_bare_tether_is_chat(home, project):
    write_home(home, settings={"defaultProvider": "faux"})
    done = run_tether(home=home, cwd=project, stdin_text="hi\n/quit\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "You said: hi\n"


def test_resume_lists_sessions_most_recent_first(home, project):
    for text in ("alpha", "beta"):
        assert run_tether("run", *FAUX, text, home=home, cwd=project).returncode == 0
    alpha, beta = files(home)
    picked = _chat_with_a_terminal(home, project, ["2", "/session", "/quit"], "-r")
    assert picked.returncode == 0, picked.stderr
    listing = picked.stdout
    assert "  1. " in listing and "  2. " in listing
    assert listing.index("beta") < listing.index("alpha")  # most recent first
    assert f"file: {alpha}" in picked.stderr  # "2" picked the older one


def _chat_with_a_terminal(home: Path, cwd: Path, lines: list[str], *args: str):
    """``tether chat ARGS`` whose stdin is a pseudo-terminal (the ``-r`` list needs one)."""
    import pty

    leader, follower = pty.openpty()
    env = {**os.environ, "TETHER_HOME": str(home), "TETHER_FSYNC": "0", **NO_THIRD_PARTY}
    env["PYTHONPATH"] = str(REPO)
    env.pop("TETHER_DEBUG", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "tether", "chat", *FAUX, *args],
        stdin=follower,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=env,
        text=True,
    )
    os.close(follower)
    os.write(leader, ("\n".join(lines) + "\n").encode())
    try:
        out, err = process.communicate(timeout=60)
    finally:
        os.close(leader)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def test_continue_picks_the_first_listed_session(home, project):
    for text in ("alpha", "beta"):
        assert run_tether("run", *FAUX, text, home=home, cwd=project).returncode == 0
    alpha, beta = files(home)
    os.utime(beta, (1, 1))  # mtime says nothing: the last entry's time decides (design §8.14)
    done = chat(home, project, ["/session", "/quit"], "-c")
    assert f"file: {beta}" in done.stderr
