"""Feedback on long work, as real processes against the loopback OpenAI-compatible server:
``tether run`` says retries and compaction progress on stderr (``-q`` silences them), an
error after retries says how many attempts were made, the chat shows a spinner between the
prompt and the first token on a terminal only, and ``/compact`` says "nothing to compact" once.
"""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.harness_helpers import NO_THIRD_PARTY, REPO, run_tether, write_home

MODEL = ["--model", "loop/test-model"]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    return project


def _tether_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("tether: ")]


def test_run_says_retries_on_stderr_and_quiet_silences_them(openai_server, tmp_path, project):
    home = write_home(tmp_path / "home", openai_server)
    openai_server.error(503, "overloaded")
    openai_server.text("made it")
    done = run_tether("run", *MODEL, "hi", home=home, cwd=project)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "made it\n"  # stdout keeps the answer only
    lines = _tether_lines(done.stderr)
    assert len(lines) == 2, done.stderr
    assert "retrying in 0.0 s (retry 1 of 3): " in lines[0] and "overloaded" in lines[0]
    assert lines[1] == "tether: the call succeeded on attempt 2"
    openai_server.error(503, "overloaded")
    openai_server.text("made it")
    quiet = run_tether("run", "-q", *MODEL, "hi", home=home, cwd=project)
    assert quiet.returncode == 0 and quiet.stdout == "made it\n" and quiet.stderr == ""


def test_an_error_after_retries_says_how_many_attempts(openai_server, tmp_path, project):
    home = write_home(
        tmp_path / "home", openai_server, settings={"retry": {"maxRetries": 2, "baseDelayMs": 1}}
    )
    for _ in range(3):
        openai_server.error(503, "overloaded")
    done = run_tether("run", "-q", *MODEL, "hi", home=home, cwd=project)
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert line.startswith("tether: error: model call failed after 3 attempts: ")
    assert "overloaded" in line
    openai_server.error(401, "bad key")  # not retried: no count
    once = run_tether("run", "-q", *MODEL, "hi", home=home, cwd=project)
    assert once.stderr.startswith("tether: error: model call failed: "), once.stderr


def _overflow_then_recover(server, home: Path, project: Path, *flags: str):
    """A session, then a call the server refuses as too long: compacted and retried."""
    server.text("long answer " * 40)
    assert run_tether("run", *MODEL, "first " * 40, home=home, cwd=project).returncode == 0
    server.overflow()
    server.text("## Goal\nearlier work")
    server.text("## Goal\nearlier work")  # the summary gate's retry (the goal is missing)
    server.text("recovered")
    return run_tether("run", "-c", *flags, *MODEL, "second", home=home, cwd=project)


def test_run_shows_compaction_progress(openai_server, tmp_path, project):
    settings = {"compaction": {"keepRecentTokens": 20}}
    home = write_home(tmp_path / "home", openai_server, settings=settings)
    done = _overflow_then_recover(openai_server, home, project)
    assert done.returncode == 0, done.stderr
    lines = _tether_lines(done.stderr)
    assert lines[0] == "tether: compacting the context (overflow)…", done.stderr
    assert lines[-1].startswith("tether: compacted: ") and "tokens summarized" in lines[-1]
    home = write_home(tmp_path / "quiet-home", openai_server, settings=settings)
    quiet = _overflow_then_recover(openai_server, home, project, "-q")
    assert quiet.returncode == 0 and quiet.stderr == ""


def _chat_on_a_terminal(home: Path, project: Path, lines: list[str]) -> str:
    """``tether chat`` with stderr on a pseudo-terminal; returns what the terminal showed."""
    leader, follower = pty.openpty()
    env = {
        **os.environ,
        "TETHER_HOME": str(home),
        "TETHER_FSYNC": "0",
        "PYTHONPATH": str(REPO),
        **NO_THIRD_PARTY,
    }
    env.pop("TETHER_DEBUG", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "tether", "chat", *MODEL],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=follower,
        cwd=project,
        env=env,
    )
    os.close(follower)
    assert process.stdin is not None
    process.stdin.write(("\n".join(lines) + "\n").encode())
    process.stdin.close()
    shown = b""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the process closed the terminal
                break
            if not chunk:
                break
            shown += chunk
        elif process.poll() is not None:
            break
    process.wait(timeout=30)
    os.close(leader)
    return shown.decode("utf-8", "replace")


def test_chat_spinner_before_the_first_token_on_a_terminal_only(openai_server, tmp_path, project):
    home = write_home(tmp_path / "home", openai_server)
    openai_server.text("slow answer", headers_delay=0.6)
    shown = _chat_on_a_terminal(home, project, ["hello", "/quit"])
    assert "waiting for the model" in shown
    openai_server.text("slow answer", headers_delay=0.6)
    piped = run_tether("chat", *MODEL, home=home, cwd=project, stdin_text="hello\n/quit\n")
    assert piped.returncode == 0 and piped.stdout == "slow answer\n"
    assert "waiting" not in piped.stderr


def test_chat_compact_with_nothing_to_compact_says_it_once(tmp_path, project):
    home = write_home(tmp_path / "home")
    done = run_tether(
        "chat", "--provider", "faux", home=home, cwd=project, stdin_text="/compact\n/quit\n"
    )
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if line.lower().startswith("nothing")]
    assert len(said) == 1 and said[0].startswith("nothing to compact: "), done.stderr
    assert said[0].lower().count("nothing to compact") == 1 and "compacted" not in said[0]
