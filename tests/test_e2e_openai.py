"""End to end against the loopback OpenAI-compatible server, through the harness.

Each test ends by re-opening the session file (``Session.open`` + ``build_context``) and
checking that it gives exactly the messages the agent sent in its last request.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from tests.harness_helpers import (
    assert_file_matches_last_request,
    chat_requests,
    open_harness,
    plugin_manager,
    read_entries,
    use_home,
    write_home,
)
from tests.servers import ToolCall, Usage
from tether.core.session.session import Session

MODEL = "loop/test-model"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return use_home(tmp_path / "home", monkeypatch)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    (project / "a.txt").write_text("alpha\nbeta\n")
    (project / "b.txt").write_text("bravo\n")
    return project


def test_multi_turn_with_parallel_tool_calls(openai_server, home, project):
    write_home(home, openai_server)
    openai_server.tool_calls(
        ToolCall("read", {"path": "a.txt"}, id="call_a"),
        ToolCall("ls", {"path": "."}, id="call_b"),
    )
    openai_server.text("a.txt starts with alpha; the folder has a.txt and b.txt.")
    openai_server.text("Second answer.")
    events: list[str] = []
    with open_harness(plugin_manager(), project, home, MODEL) as harness:
        harness.subscribe(lambda e: events.append(e.type))
        first = harness.prompt("what is in a.txt and this folder?")
        second = harness.prompt("and now?")
        file, model = harness.session.file, harness.model
        agent_messages = list(harness.agent.state.messages)

    assert first.text.startswith("a.txt starts with alpha")
    assert second.text == "Second answer."
    # both tools ran in one batch; their results went back in source order, in one request
    assert events.count("tool_execution_start") == 2
    tool_request = chat_requests(openai_server)[1]["messages"]
    tool_messages = [m for m in tool_request if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_messages] == ["call_a", "call_b"]
    assert "alpha" in tool_messages[0]["content"]
    assert "b.txt" in tool_messages[1]["content"]
    third = chat_requests(openai_server)[2]["messages"]
    assert [m["role"] for m in third[1:]] == [
        "user",
        "assistant",
        "tool",
        "tool",
        "assistant",
        "user",
    ]

    kinds = [(e["type"], e.get("message", {}).get("role")) for e in read_entries(file)[1:]]
    assert kinds[:2] == [("model_change", None), ("thinking_level_change", None)]
    assert [role for _, role in kinds[2:]] == [
        "user",
        "assistant",
        "toolResult",
        "toolResult",
        "assistant",
        "user",
        "assistant",
    ]
    assert Session.open(file).build_context().messages == agent_messages
    assert_file_matches_last_request(file, openai_server, model)


def test_threshold_compaction_then_keeps_working(openai_server, home, project):
    write_home(
        home,
        openai_server,
        settings={"compaction": {"reserveTokens": 1000, "keepRecentTokens": 100}},
        contextWindow=4000,
    )
    openai_server.text("first answer " * 20, usage=Usage(input=500, output=60))
    openai_server.text("second answer " * 20, usage=Usage(input=3100, output=60))
    openai_server.text("## Goal\nsummary of the early turns")  # the summarizer's call
    openai_server.text("## Goal\nsummary of the early turns")  # the summary gate's retry
    openai_server.text("third answer", usage=Usage(input=900, output=5))
    compactions: list[dict] = []
    with open_harness(plugin_manager(), project, home, MODEL) as harness:
        harness.subscribe(lambda e: compactions.append(e.data) if e.type == "compaction_end" else 0)
        harness.prompt("first question " * 30)
        assert compactions == []
        harness.prompt("second question " * 30)  # 3160 > 4000 - 1000: compacts after the run
        assert len(compactions) == 1 and compactions[0]["reason"] == "threshold"
        assert compactions[0]["result"]["type"] == "compaction"
        assert compactions[0]["gate"]["verdict"] == "carried_forward"  # sections, goal
        assert compactions[0]["gate"] == compactions[0]["result"]["details"]["gate"]
        assert harness.agent.state.messages[0]["role"] == "compactionSummary"
        result = harness.prompt("third question")
        file, model = harness.session.file, harness.model

    assert result.text == "third answer"
    summary_request = openai_server.requests[2].body
    assert summary_request["stream"] is False and "first question" in str(summary_request)
    last = chat_requests(openai_server)[-1]["messages"]
    assert "summary of the early turns" in str(last[1]["content"])
    assert "first question" not in str(last[2:])  # summarized away: only the summary has it
    assert "first question first question" in str(last[1]["content"])  # the goal, kept
    entries = read_entries(file)
    assert [e["type"] for e in entries].count("compaction") == 1
    assert_file_matches_last_request(file, openai_server, model)


def test_overflow_compacts_and_retries_once(openai_server, home, project):
    write_home(home, openai_server, settings={"compaction": {"keepRecentTokens": 20}})
    openai_server.text("early answer " * 30)
    openai_server.overflow()
    openai_server.text("## Goal\nthe summary")  # summarizer
    openai_server.text("## Goal\nthe summary")  # the summary gate's retry
    openai_server.text("answer after recovery")
    events: list[tuple[str, dict]] = []
    with open_harness(plugin_manager(), project, home, MODEL) as harness:
        harness.subscribe(lambda e: events.append((e.type, e.data)))
        harness.prompt("early question " * 30)
        result = harness.prompt("the question that overflows")
        file, model = harness.session.file, harness.model

    assert result.text == "answer after recovery"
    ends = [d for t, d in events if t == "compaction_end"]
    assert len(ends) == 1 and ends[0]["reason"] == "overflow" and ends[0]["will_retry"]
    assert ends[0]["gate"]["verdict"] == "carried_forward"
    bodies = chat_requests(openai_server)
    assert len(bodies) == 3  # early, overflow, one retry
    assert bodies[2]["messages"][-1] == {"role": "user", "content": "the question that overflows"}
    assert "the summary" in str(bodies[2]["messages"][1]["content"])
    messages = [e["message"] for e in read_entries(file) if e["type"] == "message"]
    assert [m.get("stopReason") for m in messages if m["role"] == "assistant"] == [
        "stop",
        "error",
        "stop",
    ]  # the overflow error stays in the file; it is never sent again
    assert_file_matches_last_request(file, openai_server, model)


def test_second_overflow_gives_up(openai_server, home, project):
    write_home(home, openai_server, settings={"compaction": {"keepRecentTokens": 20}})
    openai_server.text("early answer " * 30)
    openai_server.overflow()
    openai_server.text("## Goal\nthe summary")
    openai_server.text("## Goal\nthe summary")  # the summary gate's retry
    openai_server.overflow()
    with open_harness(plugin_manager(), project, home, MODEL, on_warning=lambda _m: None) as h:
        h.prompt("early question " * 30)
        result = h.prompt("too big")
        assert result.stop_reason == "error"
        assert any("after one compact-and-retry" in w for w in h.warnings)
    assert len(chat_requests(openai_server)) == 3


def test_429_then_503_retried_with_backoff(openai_server, home, project):
    write_home(home, openai_server)
    openai_server.error(429, "Rate limit reached", headers={"retry-after": "0.05"})
    openai_server.error(503, "Service unavailable")
    openai_server.text("finally")
    events: list[tuple[str, dict]] = []
    with open_harness(plugin_manager(), project, home, MODEL) as harness:
        harness.subscribe(lambda e: events.append((e.type, e.data)))
        result = harness.prompt("hello")
        file, model = harness.session.file, harness.model
        assert [m["role"] for m in harness.agent.state.messages] == ["user", "assistant"]

    assert result.text == "finally"
    starts = [d for t, d in events if t == "auto_retry_start"]
    assert [(d["attempt"], d["delay_ms"]) for d in starts] == [(1, 50), (2, 2)]  # Retry-After
    assert [d for t, d in events if t == "auto_retry_end"] == [{"success": True, "attempt": 2}]
    assert len(chat_requests(openai_server)) == 3
    errors = [
        e["message"]["errorMessage"]
        for e in read_entries(file)
        if e["type"] == "message" and e["message"].get("stopReason") == "error"
    ]
    assert [text.split()[0] for text in errors] == ["429", "503"]
    assert_file_matches_last_request(file, openai_server, model)


def test_permanent_error_is_not_retried(openai_server, home, project):
    write_home(home, openai_server)
    openai_server.error(400, "max_tokens 5000 is too large: 500 allowed")
    with open_harness(plugin_manager(), project, home, MODEL) as harness:
        result = harness.prompt("hello")
    # pi's substring classifier would retry this (it contains "500", spec §13.5 #37)
    assert result.stop_reason == "error" and "5000" in (result.error or "")
    assert len(openai_server.requests) == 1


def test_abort_mid_stream_leaves_a_valid_session(openai_server, home, project):
    write_home(home, openai_server)
    openai_server.text("x" * 400, chunk_size=2, chunk_delay=0.01)
    openai_server.text("after the abort")
    started = threading.Event()
    with open_harness(plugin_manager(), project, home, MODEL) as harness:

        def on_event(event):
            if event.type == "message_update":
                started.set()

        harness.subscribe(on_event)
        box: dict = {}
        worker = threading.Thread(target=lambda: box.update(r=harness.prompt("stream a lot")))
        worker.start()
        assert started.wait(10)
        harness.abort()
        worker.join(10)
        assert box["r"].stop_reason == "aborted"
        partial = box["r"].final["content"][0]["text"]
        assert 0 < len(partial) < 400
        file = harness.session.file
        reopened = Session.open(file)
        assert not reopened.problems
        assert reopened.build_context().messages == harness.agent.state.messages
        result = harness.prompt("go on")
        model = harness.model

    assert result.text == "after the abort"
    last = chat_requests(openai_server)[-1]["messages"]
    assert [m["role"] for m in last[1:]] == ["user", "user"]  # the aborted answer is not resent
    assert_file_matches_last_request(file, openai_server, model)
