"""The stateful agent: one run at a time, queues, abort, failures, hook binding."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import threading
import time
from importlib import import_module

import pluggy
import pytest

from tests.agent_fakes import (
    MODEL,
    ScriptedModel,
    call,
    echo_tool,
    make_tool,
    roles,
    slow_reply,
    text_of,
    text_reply,
    tool_reply,
    types,
)
from tether.core.agent.agent import Agent, AgentBusyError
from tether.core.agent.loop import user_message
from tether.hookspecs import PROJECT_NAME, SPEC_MODULES, hookimpl
from tether.hookspecs.events import Block
from tether.hookspecs.tools import ToolError, ToolResult


def make_agent(model: ScriptedModel, tools=(), **options) -> tuple[Agent, list]:
    agent = Agent(
        stream_fn=model.for_agent, model=MODEL, system_prompt="sys", tools=tools, **options
    )
    events: list = []
    agent.subscribe(events.append)
    return agent, events


def test_every_loop_option_is_an_agent_option_and_a_wrong_name_fails_at_once():
    """The agent hands its options to every run as LoopConfig fields (one list: LoopConfig's),
    so a loop option such as ``should_stop_after_turn`` works; a name that is no field fails
    when the agent is made, not in a run."""
    model = ScriptedModel(tool_reply(call("1", "echo", text="a")), text_reply("never asked"))
    agent, _ = make_agent(
        model, tools=[echo_tool()], should_stop_after_turn=lambda message, results: True
    )
    assert roles(agent.prompt("go")) == ["user", "assistant", "toolResult"]
    assert model.calls == 1
    with pytest.raises(TypeError, match="colour"):
        make_agent(ScriptedModel(), colour="blue")


def test_prompt_updates_state_and_listeners_get_the_message_objects():
    model = ScriptedModel(text_reply("hi there"))
    agent, events = make_agent(model)
    new = agent.prompt("hello", images=[{"type": "image", "data": "AAA=", "mimeType": "image/png"}])
    assert roles(new) == ["user", "assistant"]
    assert agent.state.messages == new
    user = agent.state.messages[0]
    assert user["content"] == [
        {"type": "text", "text": "hello"},
        {"type": "image", "data": "AAA=", "mimeType": "image/png"},
    ]
    ends = [e.data["message"] for e in events if e.type == "message_end"]
    assert ends[0] is agent.state.messages[0] and ends[1] is agent.state.messages[1]
    assert not agent.is_running and not agent.state.is_streaming
    assert agent.state.streaming_message is None
    # a second prompt sees the whole transcript
    model.replies.append(text_reply("again"))
    agent.prompt("more")
    assert roles(model.contexts[1].messages) == ["user", "assistant", "user"]


def test_one_run_at_a_time_and_queues_while_running():
    started = threading.Event()
    model = ScriptedModel(slow_reply(started), text_reply("steered"), text_reply("followed"))
    agent, events = make_agent(model)
    agent.start("long answer please")
    assert started.wait(5)
    with pytest.raises(AgentBusyError, match="already processing a prompt"):
        agent.prompt("another")
    with pytest.raises(AgentBusyError, match="Wait for completion"):
        agent.continue_()
    agent.steer("steer text")
    agent.follow_up("follow-up text")
    assert agent.has_queued_messages()
    agent.abort()
    assert agent.wait_for_idle(5)
    # the aborted run ended at once: queued messages are still there
    assert agent.state.messages[-1]["stopReason"] == "aborted"
    assert len(agent.steering_queue) == 1 and len(agent.follow_up_queue) == 1
    # continue_ after an assistant: steering first, then the follow-up
    agent.continue_()
    texts = [text_of(m) for m in agent.state.messages[-4:]]
    assert texts == ["steer text", "steered", "follow-up text", "followed"]
    assert not agent.has_queued_messages()
    with pytest.raises(ValueError, match="Cannot continue from message role: assistant"):
        agent.continue_()
    assert not agent.is_running


def test_steering_during_a_tool_batch_waits_for_the_whole_batch():
    agent_ref: list[Agent] = []
    both_started = threading.Barrier(2, timeout=5)

    def tool(call_id, args, ctx):
        both_started.wait()
        if call_id == "a":
            agent_ref[0].steer("change of plan")
        time.sleep(0.05 if call_id == "b" else 0)
        return ToolResult.text(f"result {call_id}")

    model = ScriptedModel(tool_reply(call("a", "work"), call("b", "work")), text_reply("adjusted"))
    agent, events = make_agent(model, [make_tool("work", tool)])
    agent_ref.append(agent)
    agent.prompt("do it")
    assert roles(agent.state.messages) == [
        "user",
        "assistant",
        "toolResult",
        "toolResult",
        "user",
        "assistant",
    ]
    assert [text_of(m) for m in agent.state.messages[2:5]] == [
        "result a",
        "result b",
        "change of plan",
    ]
    assert all(not m.get("isError") for m in agent.state.messages[2:4])
    assert text_of(model.contexts[1].messages[-1]) == "change of plan"


@pytest.mark.parametrize("mode, turns", [("one-at-a-time", 3), ("all", 2)])
def test_follow_up_modes(mode, turns):
    model = ScriptedModel(*[text_reply(f"answer {i}") for i in range(turns)])
    agent, events = make_agent(model, follow_up_mode=mode)
    agent.follow_up("one")
    agent.follow_up("two")
    agent.prompt("start")
    assert model.calls == turns
    user_texts = [text_of(m) for m in agent.state.messages if m["role"] == "user"]
    assert user_texts == ["start", "one", "two"]
    assert types(events).count("agent_end") == 1


def test_abort_mid_stream_leaves_an_aborted_message():
    started = threading.Event()
    model = ScriptedModel(slow_reply(started))
    agent, events = make_agent(model)
    agent.start("talk slowly")
    assert started.wait(5)
    agent.abort()
    assert agent.wait_for_idle(5)
    final = agent.state.messages[-1]
    assert final["stopReason"] == "aborted"
    assert final["errorMessage"] == "Request was aborted"
    assert text_of(final).startswith("la ")  # the partial text is kept
    ends = [e for e in events if e.type == "message_end"]
    assert ends[-1].data["message"] is final  # persisted like any other message
    assert types(events)[-2:] == ["turn_end", "agent_end"]
    assert agent.signal is None and not agent.state.is_streaming


def test_abort_kills_running_tools_which_still_produce_error_results(tmp_path):
    processes: list[subprocess.Popen] = []
    running = threading.Event()

    def sleeper(call_id, args, ctx):
        proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        processes.append(proc)
        ctx.signal.on_abort(proc.kill)
        running.set()
        proc.wait(30)
        if ctx.signal.aborted:
            raise ToolError("Command aborted")
        return ToolResult.text("slept")

    model = ScriptedModel(tool_reply(call("s1", "sleep"), call("s2", "echo", text="quick")))
    agent, events = make_agent(model, [make_tool("sleep", sleeper), echo_tool()])
    started_at = time.monotonic()
    agent.start("sleep")
    assert running.wait(10)
    agent.abort()
    assert agent.wait_for_idle(10)
    assert time.monotonic() - started_at < 10
    assert processes[0].poll() is not None  # the child process was killed
    assert roles(agent.state.messages) == ["user", "assistant", "toolResult", "toolResult"] + [
        "assistant"
    ]
    sleep_result, echo_result = agent.state.messages[2:4]
    assert text_of(sleep_result) == "Command aborted" and sleep_result["isError"] is True
    assert text_of(echo_result) == "echo:quick" and echo_result["isError"] is False
    last = agent.state.messages[-1]
    assert last["stopReason"] == "aborted" and last["provider"] == "fake"
    assert model.calls == 1  # the post-abort "call" never reaches the provider


def test_agent_level_failure_is_a_synthetic_message_announced_by_agent_end():
    def broken(context, options):
        raise RuntimeError("provider plugin crashed")

    model = ScriptedModel(broken)
    agent, events = make_agent(model)
    new = agent.prompt("hi")
    failure = new[0]
    assert failure["role"] == "assistant" and failure["stopReason"] == "error"
    assert failure["errorMessage"] == "provider plugin crashed"
    assert failure["content"] == [{"type": "text", "text": ""}]
    assert agent.state.messages[-1] is failure
    assert agent.state.error_message == "provider plugin crashed"
    end = events[-1]
    assert end.type == "agent_end" and end.data["messages"] == [failure]
    assert isinstance(end.data["error"], RuntimeError)
    # never through message_end (pi does not persist it)
    assert all(e.data["message"] is not failure for e in events if e.type == "message_end")
    # the agent is usable again
    model.replies.append(text_reply("fine now"))
    assert text_of(agent.prompt("again")[-1]) == "fine now"


def test_listener_exception_ends_the_run_as_a_failure():
    model = ScriptedModel(text_reply("x"))
    agent, events = make_agent(model)

    def picky(event):
        if event.type == "message_end" and event.data["message"]["role"] == "assistant":
            raise OSError("disk full")

    agent.subscribe(picky)
    agent.prompt("hi")
    assert agent.state.messages[-1]["errorMessage"] == "disk full"
    assert events[-1].type == "agent_end" and isinstance(events[-1].data["error"], OSError)


def test_continue_from_tool_result_and_empty_transcript():
    model = ScriptedModel(text_reply("continued"))
    agent, _ = make_agent(model)
    with pytest.raises(ValueError, match="No messages to continue from"):
        agent.continue_()
    assert not agent.is_running
    agent.state.messages = [user_message("q"), tool_reply(call("1", "echo", text="x"))]
    agent.state.messages.append(
        {
            "role": "toolResult",
            "toolCallId": "1",
            "toolName": "echo",
            "content": [],
            "isError": False,
            "timestamp": 1,
        }
    )
    new = agent.continue_()
    assert roles(new) == ["assistant"]
    assert roles(agent.state.messages) == ["user", "assistant", "toolResult", "assistant"]


def test_state_messages_assignment_copies_and_reset_clears():
    agent, _ = make_agent(ScriptedModel())
    loaded = [user_message("from session")]
    agent.state.messages = loaded
    loaded.append(user_message("not mine"))
    assert len(agent.state.messages) == 1
    agent.steer("x")
    agent.reset()
    assert agent.state.messages == [] and not agent.has_queued_messages()


def test_thinking_level_and_api_key_reach_the_provider_options():
    model = ScriptedModel(text_reply("a"), text_reply("b"))
    agent, _ = make_agent(model, thinking_level="high", get_api_key=lambda p: f"key-for-{p}")
    agent.prompt("x")
    agent.state.thinking_level = "off"
    agent.prompt("y")
    assert [o.reasoning for o in model.options] == ["high", None]
    assert model.options[0].api_key == "key-for-fake"
    assert model.options[0].signal is not None


class _Plugin:
    """A plugin using the agent hooks, bound through a pluggy manager as the harness will."""

    def __init__(self) -> None:
        self.events: list[str] = []

    @hookimpl
    def context(self, event):
        event.messages.append(user_message("(context note)"))

    @hookimpl
    def before_tool_call(self, event):
        if event.input.get("text") == "secret":
            return Block("no secrets")
        return None

    @hookimpl
    def tool_result(self, event):
        event.content = [*event.content, {"type": "text", "text": " [checked]"}]

    @hookimpl
    def agent_event(self, event):
        self.events.append(event.type)


def test_hooks_plug_in_through_pluggy():
    pm = pluggy.PluginManager(PROJECT_NAME)
    for module in SPEC_MODULES:
        pm.add_hookspecs(import_module(module))
    plugin = _Plugin()
    pm.register(plugin)

    from tether.hookspecs.events import ContextEvent

    def run_context_hook(messages):
        event = ContextEvent(copy.deepcopy(messages))
        pm.hook.context(event=event, session=None)
        return event.messages

    model = ScriptedModel(
        tool_reply(call("1", "echo", text="secret"), call("2", "echo", text="fine")),
        text_reply("ok"),
    )
    agent = Agent(
        stream_fn=model.for_agent,
        model=MODEL,
        tools=[echo_tool()],
        transform_context=run_context_hook,
        before_tool_call=lambda e: pm.hook.before_tool_call(event=e, session=None),
        after_tool_call=lambda e: pm.hook.tool_result(event=e, session=None),
    )
    agent.subscribe(lambda e: pm.hook.agent_event(event=e, session=None))
    agent.prompt("go")
    blocked, allowed = agent.state.messages[2:4]
    assert text_of(blocked) == "no secrets" and blocked["isError"] is True
    assert text_of(allowed) == "echo:fine [checked]"
    assert text_of(model.contexts[0].messages[-1]) == "(context note)"
    assert all(text_of(m) != "(context note)" for m in agent.state.messages)
    assert plugin.events[0] == "agent_start" and plugin.events[-1] == "agent_end"
    assert "tool_execution_end" in plugin.events


def test_a_failed_run_aborts_tools_still_running():
    # tether differs from pi here: pi leaves tools of a crashed run running; we abort them
    saw_abort = threading.Event()

    def long_tool(call_id, args, ctx):
        ctx.on_update(ToolResult.text("working"))
        if ctx.signal.wait(5):
            saw_abort.set()
        return ToolResult.text("late")

    model = ScriptedModel(tool_reply(call("1", "long")))
    agent, events = make_agent(model, [make_tool("long", long_tool)])

    def crash_on_update(event):
        if event.type == "tool_execution_update":
            raise RuntimeError("UI crashed")

    agent.subscribe(crash_on_update)
    agent.prompt("go")
    assert saw_abort.wait(5)
    assert agent.state.messages[-1]["stopReason"] == "error"
    assert agent.state.messages[-1]["errorMessage"] == "UI crashed"


# -- end to end: the real OpenAI-compatible provider against the loopback server ----------------


@pytest.fixture
def openai_agent_factory(openai_server, tmp_path):
    """Build an Agent on the registry's real ``openai-completions`` provider (loopback)."""
    from tether.builtin_plugins.providers.models.registry import ProviderRegistry
    from tether.core.host.manager import create_plugin_manager

    models = {
        "providers": {
            "loopback": {
                "baseUrl": openai_server.base_url,
                "api": "openai-completions",
                "apiKey": "test-key",
                "models": [openai_server.model_entry()],
            }
        }
    }
    (tmp_path / "models.json").write_text(json.dumps(models), encoding="utf-8")
    registry = ProviderRegistry(create_plugin_manager(), home=tmp_path, environ={})
    model, _ = registry.resolve("loopback/test-model")

    def make(tools=()) -> tuple[Agent, list]:
        agent = Agent(stream_fn=registry.stream, model=model, system_prompt="be brief", tools=tools)
        events: list = []
        agent.subscribe(events.append)
        return agent, events

    yield make
    registry.close()


def test_end_to_end_parallel_tools_over_http(openai_server, openai_agent_factory):
    from tests.servers.base import ToolCall

    fast_done = threading.Event()

    def slow(call_id, args, ctx):
        assert fast_done.wait(5)
        return ToolResult.text(f"slow:{args['n']}")

    def fast(call_id, args, ctx):
        fast_done.set()
        return ToolResult.text(f"fast:{args['n']}")

    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    tools = [make_tool("slow", slow, schema), make_tool("fast", fast, schema)]
    openai_server.tool_calls(
        ToolCall("slow", {"n": "1"}, id="call_a"), ToolCall("fast", {"n": 2}, id="call_b")
    )
    openai_server.text("both done")
    agent, events = openai_agent_factory(tools)
    agent.prompt("run both")

    assert roles(agent.state.messages) == [
        "user",
        "assistant",
        "toolResult",
        "toolResult",
        "assistant",
    ]
    assert text_of(agent.state.messages[-1]) == "both done"
    ends = [e.data["tool_call_id"] for e in events if e.type == "tool_execution_end"]
    assert ends == ["call_b", "call_a"]
    second = openai_server.bodies[1]
    assert second["messages"][0] == {"role": "system", "content": "be brief"}
    tool_messages = [m for m in second["messages"] if m["role"] == "tool"]
    assert [(m["tool_call_id"], m["content"]) for m in tool_messages] == [
        ("call_a", "slow:1"),  # "1" coerced to 1 by validation, in call order
        ("call_b", "fast:2"),
    ]
    assert [t["function"]["name"] for t in second["tools"]] == ["slow", "fast"]
    assert any(e.type == "message_update" for e in events)


def test_end_to_end_abort_mid_stream(openai_server, openai_agent_factory):
    openai_server.text("word " * 400, chunk_size=5, chunk_delay=0.02)
    agent, events = openai_agent_factory()
    streaming = threading.Event()
    agent.subscribe(lambda e: streaming.set() if e.type == "message_update" else None)
    started_at = time.monotonic()
    agent.start("talk")
    assert streaming.wait(10)
    agent.abort()
    assert agent.wait_for_idle(10)
    assert time.monotonic() - started_at < 5  # far less than the 8 s the full stream takes
    final = agent.state.messages[-1]
    assert final["stopReason"] == "aborted"
    assert text_of(final).startswith("word")
    assert types(events)[-2:] == ["turn_end", "agent_end"]
