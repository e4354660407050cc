"""``tether run`` as a real subprocess against the loopback OpenAI-compatible server."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli_in_process import run_in_process
from tests.harness_helpers import (
    NO_THIRD_PARTY,
    REPO,
    assert_file_matches_last_request,
    chat_requests,
    read_entries,
    run_tether,
    session_files,
    write_home,
)
from tests.servers import ToolCall
from tether.builtin_plugins.providers.models.registry import ProviderRegistry
from tether.core.session.session import Session

FIXTURES = Path(__file__).parent / "fixtures" / "pi" / "gen"
MODEL = ["--model", "loop/test-model"]


def loop_model(home: Path):
    from tests.harness_helpers import plugin_manager

    return ProviderRegistry(plugin_manager(), home=home).resolve("loop/test-model")[0]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    (project / "notes.txt").write_text("remember the milk\n")
    return project


def test_run_then_continue_with_parallel_tools(openai_server, tmp_path, project):
    home = write_home(tmp_path / "home", openai_server)
    openai_server.tool_calls(
        ToolCall("read", {"path": "notes.txt"}, id="r1"), ToolCall("ls", {}, id="l1")
    )
    openai_server.text("The note says: remember the milk.")
    done = run_tether("run", *MODEL, "read my notes", home=home, cwd=project)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "The note says: remember the milk.\n"
    [file] = session_files(home)

    openai_server.text("You asked about your notes.")
    again = run_tether("run", "-c", *MODEL, "what did I ask?", home=home, cwd=project)
    assert again.returncode == 0, again.stderr
    assert session_files(home) == [file]  # --continue picked the same session
    roles = [m["role"] for m in chat_requests(openai_server)[-1]["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "tool", "assistant", "user"]
    assert_file_matches_last_request(file, openai_server, loop_model(home))


def test_run_json_streams_events(openai_server, tmp_path, project):
    home = write_home(tmp_path / "home", openai_server)
    openai_server.text("streamed answer", chunk_size=3)
    done = run_tether("run", "--json", *MODEL, "hi", home=home, cwd=project)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert records[0]["type"] == "session" and records[0]["cwd"] == str(project)
    types = [r["type"] for r in records[1:]]
    assert types[0] == "agent_start" and types[-1] == "agent_end"
    deltas = [
        r["assistantMessageEvent"]["delta"]
        for r in records
        if r["type"] == "message_update" and r["assistantMessageEvent"]["type"] == "text_delta"
    ]
    assert "".join(deltas) == "streamed answer" and len(deltas) > 1
    end = [r for r in records if r["type"] == "message_end"][-1]
    assert end["message"]["stopReason"] == "stop"


def test_run_retries_429_and_503(openai_server, tmp_path, project):
    home = write_home(tmp_path / "home", openai_server)
    openai_server.error(429, "slow down", headers={"retry-after": "0"})
    openai_server.error(503, "overloaded")
    openai_server.text("made it")
    done = run_tether("run", "--json", *MODEL, "hi", home=home, cwd=project)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    retries = [r for r in records if r["type"] == "auto_retry_start"]
    assert [(r["attempt"], r["delayMs"]) for r in retries] == [(1, 1), (2, 2)]
    [file] = session_files(home)
    assert_file_matches_last_request(file, openai_server, loop_model(home))


def test_run_overflow_compacts_and_retries(openai_server, tmp_path, project):
    home = write_home(
        tmp_path / "home", openai_server, settings={"compaction": {"keepRecentTokens": 20}}
    )
    openai_server.text("long answer " * 40)
    assert run_tether("run", *MODEL, "first " * 40, home=home, cwd=project).returncode == 0
    openai_server.overflow()
    openai_server.text("## Goal\nearlier work")
    openai_server.text("## Goal\nearlier work")  # the summary gate's retry
    openai_server.text("recovered")
    done = run_tether("run", "-c", *MODEL, "second", home=home, cwd=project)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "recovered\n"
    assert "summary gate: carried forward" in done.stderr  # what the gate repaired (progress)
    [file] = session_files(home)
    assert [e["type"] for e in read_entries(file)].count("compaction") == 1
    assert_file_matches_last_request(file, openai_server, loop_model(home))


def test_pi_session_continues_in_tether(openai_server, tmp_path, project):
    home = write_home(tmp_path / "home", openai_server)
    copy = tmp_path / "pi-session.jsonl"
    shutil.copy(FIXTURES / "g03-linear-tools.jsonl", copy)
    original = copy.read_bytes()
    before = Session.open(copy, readonly=True).build_context().messages
    openai_server.text("continuing where pi stopped")
    done = run_tether("run", "--session", str(copy), *MODEL, "go on", home=home, cwd=project)
    assert done.returncode == 0, done.stderr
    data = copy.read_bytes()
    assert data.startswith(original)  # pi's lines are untouched; tether appended
    after = Session.open(copy).build_context().messages
    assert after[: len(before)] == before
    assert [m["role"] for m in after[len(before) :]] == ["user", "assistant"]
    sent = chat_requests(openai_server)[-1]["messages"]
    assert len(sent) > 3 and sent[-1] == {"role": "user", "content": "go on"}
    assert_file_matches_last_request(copy, openai_server, loop_model(home))


def test_sigint_aborts_run_and_leaves_valid_session(openai_server, tmp_path, project):
    home = write_home(tmp_path / "home", openai_server)
    openai_server.text("y" * 2000, chunk_size=2, chunk_delay=0.01)
    env = {
        **os.environ,
        "TETHER_HOME": str(home),
        "TETHER_FSYNC": "0",
        "PYTHONPATH": str(REPO),
        **NO_THIRD_PARTY,
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "tether", "run", "--json", *MODEL, "stream"],
        cwd=project,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    for line in proc.stdout:  # wait until the answer is streaming
        if '"text_delta"' in line:
            break
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    [file] = session_files(home)
    session = Session.open(file)
    assert not session.problems
    last = session.build_context().messages[-1]
    assert last["role"] == "assistant" and last["stopReason"] == "aborted"


def test_faux_works_with_no_configuration(tmp_path, project):
    home = tmp_path / "empty-home"
    start = time.monotonic()
    done = run_tether("run", "--provider", "faux", "hello", home=home, cwd=project)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "You said: hello\n"
    assert time.monotonic() - start < 20
    [file] = session_files(home)
    kinds = [e["type"] for e in read_entries(file)]
    assert kinds == ["session", "model_change", "thinking_level_change", "message", "message"]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["hi"], "no model selected: pass --provider/--model (try --provider faux)"),
        (
            ["--model", "openai/gpt-4o", "hi"],
            "no API key for provider 'openai': set OPENAI_API_KEY",
        ),
        (["--provider", "nope", "hi"], "unknown provider 'nope'"),
        (["--provider", "faux", "--thinking", "huge", "hi"], "unknown thinking level 'huge'"),
        (["-c", "--no-session", "--provider", "faux", "hi"], "--continue and --no-session"),
    ],
)
def test_configuration_errors_are_one_line(tmp_path, project, args, expected):
    # the first case in a real process, the others (the same error path) in this one
    run = run_tether if args == ["hi"] else run_in_process
    done = run("run", *args, home=tmp_path / "home", cwd=project, env={"OPENAI_API_KEY": ""})
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tether: error: ") and expected in lines[0]
    assert done.stdout == ""


def test_session_options(tmp_path, project):
    home = tmp_path / "home"
    faux = ["--provider", "faux"]
    first = run_tether(
        "run", *faux, "--name", "origin", "--thinking", "low", "one", home=home, cwd=project
    )
    assert first.returncode == 0, first.stderr
    [original] = session_files(home)
    session_id = read_entries(original)[0]["id"]
    assert any(
        e["type"] == "session_info" and e["name"] == "origin" for e in read_entries(original)
    )

    by_id = run_tether("run", *faux, "--session", session_id[:8], "two", home=home, cwd=project)
    assert by_id.returncode == 0, by_id.stderr
    assert session_files(home) == [original]
    context = Session.open(original).build_context()
    assert context.thinking_level == "low"  # restored, not re-chosen
    assert [m["role"] for m in context.messages] == ["user", "assistant"] * 2

    # --fork and --no-session: the same run path, in this process
    forked = run_in_process("run", *faux, "--fork", session_id[:8], "three", home=home, cwd=project)
    assert forked.returncode == 0, forked.stderr
    [copy] = [f for f in session_files(home) if f != original]
    assert read_entries(copy)[0]["parentSession"] == str(original)
    assert len(Session.open(copy).build_context().messages) == 6

    memory = run_in_process("run", *faux, "--no-session", "four", home=home, cwd=project)
    assert memory.returncode == 0 and memory.stdout == "You said: four\n"
    assert len(session_files(home)) == 2

    missing = run_in_process("run", *faux, "--session", "zzzz", "x", home=home, cwd=project)
    assert missing.returncode != 0
    assert "no session with an id starting with 'zzzz'" in missing.stderr
