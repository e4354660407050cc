"""End to end against the loopback Anthropic Messages server, through the harness."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.harness_helpers import open_harness, plugin_manager, read_entries, use_home, write_home
from tests.servers import ToolCall
from tether.core.session.session import Session


def expected_anthropic_messages(file: Path, model) -> list:
    """The Messages API body tether builds from the file's context minus its final answer."""
    from tether.builtin_plugins.providers.anthropic.messages import convert_messages
    from tether.builtin_plugins.providers.http.calls import prepared_context
    from tether.core.context.convert import convert_to_llm
    from tether.hookspecs.providers import LlmContext

    messages = Session.open(file, readonly=True).build_context().messages
    assert messages[-1]["role"] == "assistant"
    return convert_messages(prepared_context(model, LlmContext("", convert_to_llm(messages[:-1]))))


def test_anthropic_multi_turn_with_tools_and_retry(anthropic_server, tmp_path, monkeypatch):
    home = use_home(tmp_path / "home", monkeypatch)
    project = tmp_path / "project"
    project.mkdir()
    (project / "todo.md").write_text("- ship it\n")
    write_home(home, anthropic_server, api="anthropic-messages")
    anthropic_server.tool_calls(
        ToolCall("read", {"path": "todo.md"}, id="toolu_1"),
        ToolCall("ls", {}, id="toolu_2"),
        text="Let me look.",
    )
    anthropic_server.text("Your todo list says: ship it.")
    anthropic_server.error(529, "Overloaded")
    anthropic_server.text("Yes, only todo.md.")
    with open_harness(plugin_manager(), project, home, "loop/test-model") as harness:
        first = harness.prompt("what is on my todo list?")
        second = harness.prompt("is that the only file?")
        file, model = harness.session.file, harness.model
        agent_messages = list(harness.agent.state.messages)

    assert first.text == "Your todo list says: ship it."
    assert second.text == "Yes, only todo.md."
    bodies = [r.body for r in anthropic_server.requests]
    assert len(bodies) == 4  # tools, answer, 529 (retried), answer
    results = bodies[1]["messages"][-1]["content"]
    assert [b["type"] for b in results] == ["tool_result", "tool_result"]
    assert [b["tool_use_id"] for b in results] == ["toolu_1", "toolu_2"]
    assert "ship it" in str(results[0]["content"])
    assert bodies[3]["messages"] == bodies[2]["messages"]  # the retry resends the same turn
    assert bodies[3]["system"][0]["text"]  # the assembled system prompt is sent each call
    roles = [e["message"]["role"] for e in read_entries(file) if e["type"] == "message"]
    assert roles == [
        "user",
        "assistant",
        "toolResult",
        "toolResult",
        "assistant",
        "user",
        "assistant",
        "assistant",
    ]  # the 529 error answer stays in the file, before the successful retry
    assert [m for m in agent_messages if m.get("stopReason") != "error"] == [
        m for m in Session.open(file).build_context().messages if m.get("stopReason") != "error"
    ]
    assert expected_anthropic_messages(file, model) == bodies[3]["messages"]


@pytest.mark.parametrize("status", [529, 500])
def test_anthropic_overloaded_is_transient(anthropic_server, tmp_path, monkeypatch, status):
    home = tmp_path / "home"
    monkeypatch.setenv("TETHER_HOME", str(home))
    write_home(
        home,
        anthropic_server,
        api="anthropic-messages",
        settings={
            "retry": {
                "baseDelayMs": 1,
                "maxRetries": 1,
            }
        },
    )
    anthropic_server.error(status, "Overloaded")
    anthropic_server.error(status, "Overloaded")
    ends: list[dict] = []
    with open_harness(plugin_manager(), tmp_path, home, "loop/test-model") as harness:
        harness.subscribe(lambda e: ends.append(e.data) if e.type == "auto_retry_end" else None)
        result = harness.prompt("hi")
    assert result.stop_reason == "error"
    assert len(anthropic_server.requests) == 2  # one try + maxRetries 1
    assert ends and ends[-1]["success"] is False and ends[-1]["attempt"] == 1
