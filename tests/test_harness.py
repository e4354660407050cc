"""The harness with the offline ``faux`` provider: persistence, hooks, plugin actions, setup."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.harness_helpers import (
    open_harness,
    plugin_manager,
    read_entries,
)
from tether.core.base.errors import HookError
from tether.core.harness.harness import Harness
from tether.core.session.session import Session
from tether.hookspecs import hookimpl
from tether.hookspecs.events import Block

FAUX = "faux/faux-1"
FIXTURES = Path(__file__).parent / "fixtures" / "pi" / "gen"


def script(monkeypatch: pytest.MonkeyPatch, *steps: Any) -> None:
    monkeypatch.setenv("TETHER_FAUX_SCRIPT", json.dumps(list(steps)))


def sent(harness: Harness) -> Any:
    """The last request the faux provider received (an LlmContext)."""
    return harness.registry.apis["faux"].last_context


def test_new_session_file_and_context(home, tmp_path):
    with open_harness(plugin_manager(), tmp_path, home, FAUX, thinking="high") as harness:
        harness.prompt("one")
        harness.prompt("two")
        file, messages = harness.session.file, list(harness.agent.state.messages)
    entries = read_entries(file)
    assert [e["type"] for e in entries[:3]] == ["session", "model_change", "thinking_level_change"]
    assert (entries[1]["provider"], entries[1]["modelId"]) == ("faux", "faux-1")
    assert entries[2]["thinkingLevel"] == "high"
    assert Session.open(file).build_context().messages == messages
    assert [m["role"] for m in messages] == ["user", "assistant", "user", "assistant"]


class Recorder:
    """A plugin recording what it sees, with a few knobs."""

    def __init__(self) -> None:
        self.events: list[str] = []
        self.lifecycle: list[tuple[str, str]] = []
        self.context_seen: list[Any] = []

    @hookimpl
    def input(self, event):
        if event.text == "swallow":
            event.handled = True
        event.text = event.text.replace("$WHO", "world")

    @hookimpl
    def before_agent_start(self, event, session):
        event.system_prompt += "\nRULE-A"
        return [{"customType": "note", "content": "injected note", "display": False}]

    @hookimpl
    def context(self, event):
        self.context_seen.append(event.messages)
        prompt = [m for m in event.messages if m["role"] == "user"][-1]
        prompt["content"][0]["text"] += " (edited by context)"

    @hookimpl
    def agent_event(self, event):
        self.events.append(event.type)

    @hookimpl
    def session_start(self, session, reason):
        self.lifecycle.append(("start", reason))

    @hookimpl
    def session_shutdown(self, session, reason):
        self.lifecycle.append(("shutdown", reason))


class SecondPrompt:
    @hookimpl
    def before_agent_start(self, event):
        assert "RULE-A" not in event.system_prompt  # pluggy: later registered runs first
        event.system_prompt += "\nRULE-B"


def test_hooks_around_a_turn(home, tmp_path):
    recorder = Recorder()
    pm = plugin_manager(("recorder", recorder), ("second", SecondPrompt()))
    harness = open_harness(pm, tmp_path, home, FAUX)
    assert harness.prompt("swallow").handled
    result = harness.prompt("hello $WHO")
    request = sent(harness)
    harness.close()

    assert request.system_prompt.endswith("\nRULE-B\nRULE-A")
    assert [m["role"] for m in request.messages] == ["user", "user"]
    assert request.messages[0]["content"][0]["text"] == "hello world (edited by context)"
    assert request.messages[1]["content"] == [{"type": "text", "text": "injected note"}]
    # faux echoes the user's prompt (as the model saw it), not the message injected with it
    assert result.text == "You said: hello world (edited by context)"
    # the context hook edited a copy: the agent and the file keep the real text
    stored = [e for e in read_entries(harness.session.file) if e["type"] != "session"]
    # pi's order: the prompt, then what before_agent_start injected
    assert [e["type"] for e in stored[2:]] == ["message", "custom_message", "message"]
    assert stored[3]["customType"] == "note" and stored[3]["display"] is False
    assert stored[2]["message"]["content"][0]["text"] == "hello world"
    assert harness.agent.state.messages[0]["content"][0]["text"] == "hello world"
    assert Session.open(harness.session.file).build_context().messages == (
        harness.agent.state.messages
    )
    for kind in (
        "agent_start",
        "turn_start",
        "message_start",
        "message_update",
        "message_end",
        "turn_end",
        "agent_end",
    ):
        assert kind in recorder.events
    assert recorder.lifecycle == [("start", "startup"), ("shutdown", "quit")]


class Guard:
    def __init__(self) -> None:
        self.results: list[Any] = []

    @hookimpl
    def before_tool_call(self, event):
        if "forbidden" in event.input.get("command", ""):
            return Block("no forbidden things here")
        event.input["command"] = event.input["command"].replace("WORD", "patched")
        return None

    @hookimpl
    def tool_result(self, event):
        self.results.append((event.tool_name, event.is_error))
        if not event.is_error:
            event.content = [{"type": "text", "text": event.content[0]["text"].upper()}]


def test_tool_hooks_block_patch_and_rewrite(home, tmp_path, monkeypatch):
    script(
        monkeypatch,
        {
            "toolCalls": [
                {"name": "bash", "arguments": {"command": "echo forbidden"}, "id": "c1"},
                {"name": "bash", "arguments": {"command": "echo WORD"}, "id": "c2"},
            ]
        },
        "done",
    )
    guard = Guard()
    with open_harness(plugin_manager(("guard", guard)), tmp_path, home, FAUX) as harness:
        harness.prompt("run things")
        request = sent(harness)
        file = harness.session.file
    results = [m for m in request.messages if m["role"] == "toolResult"]
    assert results[0]["isError"] and results[0]["content"][0]["text"] == "no forbidden things here"
    assert not results[1]["isError"] and "PATCHED" in results[1]["content"][0]["text"]
    assert guard.results == [("bash", False)]  # a blocked call never ran: no tool_result (pi)
    stored = [e["message"] for e in read_entries(file) if e["type"] == "message"]
    assert [m["role"] for m in stored] == [
        "user",
        "assistant",
        "toolResult",
        "toolResult",
        "assistant",
    ]
    assert stored[2]["content"][0]["text"] == "no forbidden things here"


class Messenger:
    """Uses the plugin actions of the ``session`` object."""

    def __init__(self) -> None:
        self.session: Any = None

    @hookimpl
    def session_start(self, session):
        self.session = session

    @hookimpl
    def agent_event(self, event, session):
        if event.type == "tool_execution_start":
            session.send_message({"customType": "steer", "content": "steered in", "display": True})


def test_plugin_actions_deliver_messages(home, tmp_path, monkeypatch):
    script(
        monkeypatch,
        {"toolCalls": [{"name": "ls", "arguments": {}, "id": "c1"}]},
        "after tools",
        "next turn answer",
        "triggered answer",
    )
    messenger = Messenger()
    with open_harness(plugin_manager(("messenger", messenger)), tmp_path, home, FAUX) as h:
        view = messenger.session
        h.prompt("list")  # the steering message lands after the tool batch, same run
        after_tools = sent(h).messages
        assert [m["role"] for m in after_tools] == ["user", "assistant", "toolResult", "user"]
        assert after_tools[-1]["content"] == [{"type": "text", "text": "steered in"}]

        view.send_message(
            {"customType": "later", "content": "for next turn"}, deliver_as="next_turn"
        )
        view.append_entry("my-state", {"counter": 1})
        view.send_message({"customType": "idle", "content": "stored now"})
        h.prompt("next")
        last = sent(h).messages
        texts = [m["content"][0]["text"] for m in last[-3:]]
        assert texts == ["stored now", "next", "for next turn"]

        view.send_message({"customType": "go", "content": "run on this"}, trigger_turn=True)
        assert sent(h).messages[-1]["content"][0]["text"] == "run on this"
        assert h.agent.state.messages[-1]["content"][0]["text"] == "triggered answer"
        file = h.session.file
        agent_messages = list(h.agent.state.messages)
    entries = read_entries(file)
    custom = [e for e in entries if e["type"] == "custom"]
    assert custom == [{**custom[0], "customType": "my-state", "data": {"counter": 1}}]
    assert Session.open(file).build_context().messages == agent_messages


class Broken:
    @hookimpl
    def context(self, event):
        raise RuntimeError("context plugin exploded")


def test_a_context_hook_failing_on_the_first_call_stores_nothing(home, tmp_path):
    """The prompt's first model call has its context hooks run before the prompt is stored:
    a failing plugin fails the prompt, named, with nothing written (issue 24, item 5)."""
    with open_harness(plugin_manager(("broken", Broken())), tmp_path, home, FAUX) as h:
        with pytest.raises(HookError, match="plugin 'broken' failed in context"):
            h.prompt("hello")
        assert [e["type"] for e in h.session.entries()] == [
            "model_change",
            "thinking_level_change",
        ]


class BrokenLater:
    @hookimpl
    def context(self, event, session):
        if any(m.get("role") == "toolResult" for m in event.messages):
            raise RuntimeError("context plugin exploded")


def test_agent_level_failure_is_stored(home, tmp_path, monkeypatch):
    script(monkeypatch, {"toolCalls": [{"name": "ls", "arguments": {}, "id": "c1"}]})
    with open_harness(plugin_manager(("broken", BrokenLater())), tmp_path, home, FAUX) as h:
        result = h.prompt("hello")
        file = h.session.file
    assert result.stop_reason == "error"
    assert "plugin 'broken' failed in context" in result.error
    stored = [e["message"] for e in read_entries(file) if e["type"] == "message"]
    assert [m["role"] for m in stored] == ["user", "assistant", "toolResult", "assistant"]
    assert stored[-1]["stopReason"] == "error"  # pi keeps this one in memory only (§13.5 #33)


class FollowUp:
    @hookimpl
    def agent_event(self, event, session):
        if event.type == "tool_execution_start":
            session.send_message(
                {"customType": "f", "content": "after you finish"}, deliver_as="follow_up"
            )


def test_follow_up_waits_until_the_agent_would_stop(home, tmp_path, monkeypatch):
    script(
        monkeypatch,
        {"toolCalls": [{"name": "ls", "arguments": {}, "id": "c1"}]},
        "after tools",
        "follow-up answer",
    )
    with open_harness(plugin_manager(("f", FollowUp())), tmp_path, home, FAUX) as h:
        result = h.prompt("list")
        roles = [m["role"] for m in h.agent.state.messages]
        file, messages = h.session.file, list(h.agent.state.messages)
    assert result.text == "follow-up answer"
    assert roles == ["user", "assistant", "toolResult", "assistant", "custom", "assistant"]
    assert Session.open(file).build_context().messages == messages
