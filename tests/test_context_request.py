"""``tether session context FILE --request`` prints, byte for byte, the body the provider
receives: checked against what the loopback servers recorded for the same session's calls
(tools, thinking, a compaction summary with the recall note)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_in_process import run_in_process
from tests.harness_helpers import read_entries, run_tether, session_files, write_home
from tests.servers import ToolCall

MODEL = ["--model", "loop/test-model"]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    (project / "notes.txt").write_text("remember the milk\n")
    return project


def _leaves_of_calls(file: Path) -> list[str]:
    """The leaf each model call was made at: the parent of each assistant answer."""
    return [
        e["parentId"]
        for e in read_entries(file)
        if e["type"] == "message" and e["message"]["role"] == "assistant"
    ]


def _request(file: Path, leaf: str, home: Path, cwd: Path, *, process: bool = True) -> bytes:
    """What ``session context --request`` prints: a real process, or this one's (``process``)."""
    run = run_tether if process else run_in_process
    done = run("session", "context", str(file), "--request", "--leaf", leaf, home=home, cwd=cwd)
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("\n")
    return done.stdout[:-1].encode("utf-8")


def _check_every_call(server, home: Path, project: Path) -> list[dict]:
    [file] = session_files(home)
    chats = [r for r in server.requests if json.loads(r.raw).get("stream")]
    leaves = _leaves_of_calls(file)
    assert len(chats) == len(leaves)
    for index, (recorded, leaf) in enumerate(zip(chats, leaves, strict=True)):
        # the first in a real process, the others in this one
        assert _request(file, leaf, home, project, process=index == 0) == recorded.raw
    return [r.body for r in chats]


def test_openai_bodies_equal_what_the_server_received(openai_server, tmp_path, project):
    home = write_home(
        tmp_path / "home", openai_server, settings={"compaction": {"keepRecentTokens": 10}}
    )
    openai_server.tool_calls(
        ToolCall("read", {"path": "notes.txt"}, id="r1"), ToolCall("ls", {}, id="l1")
    )
    openai_server.text("The note says: remember the milk.")
    assert run_tether("run", *MODEL, "read my notes", home=home, cwd=project).returncode == 0
    [file] = session_files(home)
    compacted = run_tether(
        "session", "compact", str(file), "--summarizer", "offline", home=home, cwd=project
    )
    assert compacted.returncode == 0, compacted.stderr
    openai_server.text("Milk, still.")
    again = run_tether("run", "-c", *MODEL, "what was it?", home=home, cwd=project)
    assert again.returncode == 0, again.stderr

    bodies = _check_every_call(openai_server, home, project)
    assert len(bodies) == 3 and bodies[0]["tools"]
    assert bodies[0]["messages"][0]["role"] == "system"
    summary = bodies[2]["messages"][1]["content"]
    assert "summary" in str(summary).lower() and "recall" in str(summary)  # the span note


def test_anthropic_bodies_with_thinking(anthropic_server, tmp_path, project):
    home = write_home(tmp_path / "home", anthropic_server, api="anthropic-messages", reasoning=True)
    anthropic_server.tool_calls(ToolCall("ls", {}, id="toolu_1"), thinking="let me look")
    anthropic_server.text("Only notes.txt.")
    done = run_tether("run", *MODEL, "--thinking", "high", "what is here?", home=home, cwd=project)
    assert done.returncode == 0, done.stderr

    bodies = _check_every_call(anthropic_server, home, project)
    assert [b["thinking"]["type"] for b in bodies] == ["enabled", "enabled"]
    assert bodies[0]["system"][0]["text"] and bodies[0]["tools"]


def _one_prompt_session(tmp_path: Path, project: Path) -> Path:
    """A session with one user message and no model recorded."""
    file = tmp_path / "s.jsonl"
    header = {"type": "session", "version": 3, "id": "s1", "timestamp": "2026-01-01T00:00:00.000Z"}
    entry = {
        "type": "message",
        "id": "a1",
        "parentId": None,
        "timestamp": "2026-01-01T00:00:01.000Z",
        "message": {"role": "user", "content": "hi", "timestamp": 1},
    }
    file.write_text(json.dumps({**header, "cwd": str(project)}) + "\n" + json.dumps(entry) + "\n")
    return file


def test_a_session_without_a_usable_model_is_one_line(tmp_path, project):
    home = write_home(tmp_path / "home")  # no provider configured, no default
    file = _one_prompt_session(tmp_path, project)
    done = run_tether("session", "context", str(file), "--request", home=home, cwd=project)
    assert done.returncode != 0 and done.stdout == ""
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("tether: error: no model selected: pass --provider/--model")
    # the advice names options this command takes
    helped = run_tether("session", "context", "--help", home=home, cwd=project)
    assert "--provider" in helped.stdout and "--model" in helped.stdout


@pytest.mark.parametrize(
    "choice",
    [
        ["--model", "loop/test-model"],
        ["--provider", "loop", "--model", "test-model"],
        ["-m", "test-model"],
    ],
)
def test_model_options_choose_the_model_as_run_does(openai_server, tmp_path, project, choice):
    home = write_home(tmp_path / "home", openai_server)  # a provider, but no default model
    file = _one_prompt_session(tmp_path, project)
    done = run_tether("session", "context", str(file), "--request", *choice, home=home, cwd=project)
    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert body["model"] == "test-model" and body["messages"][-1]["content"] == "hi"


def test_model_options_without_request_are_refused(tmp_path, project):
    home = write_home(tmp_path / "home")
    file = _one_prompt_session(tmp_path, project)
    done = run_tether(
        "session", "context", str(file), "--model", "faux/faux-1", home=home, cwd=project
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        "tether: error: --provider and --model only apply with --request"
    ]
