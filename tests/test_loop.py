"""The stateless loop (pi 0.73 runLoop) driven by a scripted in-process model function."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from tests.agent_fakes import (
    MODEL,
    ScriptedModel,
    assistant,
    call,
    echo_tool,
    make_tool,
    roles,
    text_of,
    text_reply,
    tool_reply,
    types,
)
from tether.builtin_plugins.tools.tool_arguments import ToolArgumentsError, validate_tool_arguments
from tether.core.agent.loop import (
    LoopConfig,
    LoopContext,
    run_agent_loop,
    run_agent_loop_continue,
    user_message,
)
from tether.hookspecs.abort import AbortSignal
from tether.hookspecs.events import Block
from tether.hookspecs.providers import StreamEvent
from tether.hookspecs.tools import ToolError, ToolResult


def run(model, tools=(), prompt="go", messages=(), **config):
    events = []
    context = LoopContext("system", list(messages), list(tools))
    config.setdefault("validate_arguments", validate_tool_arguments)  # the built-in's, as a harness
    cfg = LoopConfig(stream_fn=model, model=MODEL, **config)
    new = run_agent_loop([user_message(prompt)], context, cfg, events.append, AbortSignal())
    return new, events


def results_of(new):
    return [m for m in new if m["role"] == "toolResult"]


def test_text_reply_event_sequence_and_messages():
    model = ScriptedModel(text_reply("hello"))
    new, events = run(model)
    assert types(events) == [
        "agent_start",
        "turn_start",
        "message_start",
        "message_end",
        "message_start",
        "message_update",
        "message_end",
        "turn_end",
        "agent_end",
    ]
    assert roles(new) == ["user", "assistant"]
    assert new[0]["content"] == [{"type": "text", "text": "go"}]
    assert isinstance(new[0]["timestamp"], int)
    assert events[-1].data["messages"] is new
    assert events[6].data["message"] is new[1]  # message_end carries the final object
    assert events[7].data["tool_results"] == []
    llm = model.contexts[0]
    assert llm.system_prompt == "system"
    assert roles(llm.messages) == ["user"]


def test_parallel_tools_results_in_call_order_even_when_second_finishes_first():
    second_done = threading.Event()
    running = []

    def slow(_id, args, ctx):
        running.append("slow")
        assert second_done.wait(5), "the fast tool never ran concurrently"
        return ToolResult.text("slow done")

    def fast(_id, args, ctx):
        running.append("fast")
        second_done.set()
        return ToolResult.text("fast done")

    tools = [make_tool("slow", slow), make_tool("fast", fast)]
    model = ScriptedModel(
        tool_reply(call("c1", "slow"), call("c2", "fast")),
        tool_reply(call("c3", "fast")),
        text_reply("all done"),
    )
    new, events = run(model, tools)
    ends = [e.data["tool_call_id"] for e in events if e.type == "tool_execution_end"]
    assert ends[:2] == ["c2", "c1"]  # completion order
    results = results_of(new)
    assert [r["toolCallId"] for r in results] == ["c1", "c2", "c3"]  # source order
    assert [text_of(r) for r in results] == ["slow done", "fast done", "fast done"]
    assert roles(new) == ["user", "assistant", "toolResult", "toolResult", "assistant"] + [
        "toolResult",
        "assistant",
    ]
    # the second call saw both results, in call order, after its assistant message
    assert roles(model.contexts[1].messages) == ["user", "assistant", "toolResult", "toolResult"]
    assert [m.get("toolCallId") for m in model.contexts[1].messages[2:]] == ["c1", "c2"]
    # tool-result message events come after every tool_execution_end of the batch, in order
    batch = types(events)[types(events).index("tool_execution_start") :]
    assert batch[:6] == ["tool_execution_start"] * 2 + ["tool_execution_end"] * 2 + [
        "message_start",
        "message_end",
    ]
    assert sum(1 for e in events if e.type == "turn_start") == 3
    turn_ends = [e for e in events if e.type == "turn_end"]
    assert [e.data["turn_index"] for e in turn_ends] == [0, 1, 2]
    assert [len(e.data["tool_results"]) for e in turn_ends] == [2, 1, 0]


def test_tool_result_message_shape_is_pis():
    model = ScriptedModel(tool_reply(call("c1", "echo", text="hi")), text_reply("ok"))
    new, _ = run(model, [echo_tool()])
    result = results_of(new)[0]
    assert list(result) == ["role", "toolCallId", "toolName", "content", "isError", "timestamp"]
    assert result["content"] == [{"type": "text", "text": "echo:hi"}]
    assert result["isError"] is False


def test_sequential_when_any_called_tool_declares_it():
    active = []
    overlap = []
    order = []

    def runner(name):
        def run_tool(_id, args, ctx):
            active.append(name)
            overlap.append(len(active))
            time.sleep(0.02)
            order.append(name)
            active.remove(name)
            return ToolResult.text(name)

        return run_tool

    tools = [make_tool("a", runner("a")), make_tool("b", runner("b"), execution_mode="sequential")]
    model = ScriptedModel(tool_reply(call("1", "a"), call("2", "b")), text_reply("ok"))
    new, events = run(model, tools)
    assert max(overlap) == 1
    assert order == ["a", "b"]
    kinds = types(events)[types(events).index("tool_execution_start") :]
    # per call: start, end, result message — before the next call starts
    assert kinds[:8] == [
        "tool_execution_start",
        "tool_execution_end",
        "message_start",
        "message_end",
        "tool_execution_start",
        "tool_execution_end",
        "message_start",
        "message_end",
    ]


def test_unknown_tool_gives_pis_error_result():
    model = ScriptedModel(tool_reply(call("c1", "nope", x=1)), text_reply("sorry"))
    new, events = run(model, [echo_tool()])
    result = results_of(new)[0]
    assert result["content"] == [{"type": "text", "text": "Tool nope not found"}]
    assert result["details"] == {}
    assert result["isError"] is True
    end = next(e for e in events if e.type == "tool_execution_end")
    assert end.data["is_error"] is True


def test_validation_error_text_and_coercion():
    seen = []
    schema = {
        "type": "object",
        "properties": {"path": {"type": "string"}, "limit": {"type": "integer"}},
        "required": ["path"],
    }
    tool = make_tool(
        "read", lambda _i, args, _c: (seen.append(args), ToolResult.text("ok"))[1], schema
    )
    model = ScriptedModel(
        tool_reply(call("c1", "read", limit="x")),
        tool_reply(call("c2", "read", path=7, limit="20")),
        text_reply("done"),
    )
    new, _ = run(model, [tool])
    first, second = results_of(new)
    expected = (
        'Validation failed for tool "read":\n'
        "  - path: must have required properties path\n"
        "  - limit: must be integer\n\n"
        "Received arguments:\n" + json.dumps({"limit": "x"}, indent=2)
    )
    assert text_of(first) == expected
    assert first["isError"] is True
    assert second["isError"] is False
    assert seen == [{"path": "7", "limit": 20}]  # pi's coercions reached the tool


def test_before_tool_call_block_patch_and_failure():
    ran = []
    schema = {"type": "object", "properties": {"text": {"type": "string"}}}
    tool = make_tool(
        "echo", lambda _i, args, _c: (ran.append(args["text"]), ToolResult.text("x"))[1], schema
    )

    def before(event):
        assert event.tool_name == "echo"
        if event.input["text"] == "block":
            return Block("not allowed here")
        if event.input["text"] == "silent":
            return Block("")
        if event.input["text"] == "boom":
            raise RuntimeError("hook exploded")
        event.input["text"] = event.input["text"].upper()  # patched in place
        return None

    model = ScriptedModel(
        tool_reply(
            call("1", "echo", text="block"),
            call("2", "echo", text="silent"),
            call("3", "echo", text="boom"),
            call("4", "echo", text="ok"),
        ),
        text_reply("done"),
    )
    new, _ = run(model, [tool], before_tool_call=before)
    texts = [text_of(r) for r in results_of(new)]
    assert texts == ["not allowed here", "Tool execution was blocked", "hook exploded", "x"]
    assert [r["isError"] for r in results_of(new)] == [True, True, True, False]
    assert ran == ["OK"]


def test_tool_exception_becomes_error_result():
    def failing(_id, args, ctx):
        raise ToolError("file is on fire")

    def crashing(_id, args, ctx):
        raise KeyError("k")

    tools = [make_tool("fire", failing), make_tool("crash", crashing)]
    model = ScriptedModel(tool_reply(call("1", "fire"), call("2", "crash")), text_reply("ok"))
    new, _ = run(model, tools)
    first, second = results_of(new)
    assert text_of(first) == "file is on fire" and first["isError"] is True
    assert text_of(second) == "'k'" and second["isError"] is True
    assert first["details"] == {}


def test_after_tool_call_patches_field_wise():
    tool = make_tool("t", lambda _i, _a, _c: ToolResult.text("raw", details={"n": 1}))

    def after(event):
        if event.tool_call_id == "1":
            event.content = [{"type": "text", "text": "edited in place"}]
            return None
        if event.tool_call_id == "2":
            return {"is_error": True}  # only is_error changes; content/details kept
        raise ValueError("after hook failed")

    model = ScriptedModel(
        tool_reply(call("1", "t"), call("2", "t"), call("3", "t")), text_reply("ok")
    )
    new, _ = run(model, [tool], after_tool_call=after)
    one, two, three = results_of(new)
    assert text_of(one) == "edited in place" and one["details"] == {"n": 1}
    assert text_of(two) == "raw" and two["details"] == {"n": 1} and two["isError"] is True
    assert text_of(three) == "after hook failed" and three["isError"] is True


def test_terminate_stops_only_when_every_result_terminates():
    def stop_tool(_id, args, ctx):
        result = ToolResult.text("bye")
        result.terminate = True
        return result

    tools = [make_tool("stop", stop_tool), echo_tool()]
    model = ScriptedModel(tool_reply(call("1", "stop"), call("2", "stop")))
    new, events = run(model, tools)
    assert model.calls == 1
    assert roles(new) == ["user", "assistant", "toolResult", "toolResult"]
    assert events[-1].type == "agent_end"

    mixed = ScriptedModel(
        tool_reply(call("1", "stop"), call("2", "echo", text="x")), text_reply("continued")
    )
    new, _ = run(mixed, tools)
    assert mixed.calls == 2 and text_of(new[-1]) == "continued"

    # after_tool_call may set terminate
    patched = ScriptedModel(tool_reply(call("1", "echo", text="x")))
    new, _ = run(patched, tools, after_tool_call=lambda e: {"terminate": True})
    assert patched.calls == 1


def test_error_stop_reason_ends_the_run():
    failed = assistant([], stop="error", errorMessage="boom 500")
    model = ScriptedModel(failed)
    new, events = run(model, [echo_tool()], get_follow_up_messages=lambda: [user_message("later")])
    assert roles(new) == ["user", "assistant"]
    assert types(events)[-2:] == ["turn_end", "agent_end"]
    assert events[-2].data["tool_results"] == []


def test_error_event_exposes_typed_error_on_message_end():
    from tether.hookspecs.providers import TransientError

    error = TransientError("503 overloaded", status=503)
    message = assistant([], stop="error", errorMessage=str(error))
    model = ScriptedModel(lambda c, o: iter([StreamEvent("error", message=message, error=error)]))
    new, events = run(model)
    end = [e for e in events if e.type == "message_end"][-1]
    assert end.data["message"] is message and end.data["error"] is error
    starts = [e for e in events if e.type == "message_start"]
    assert starts[-1].data["message"]["stopReason"] == "error"  # start emitted without "start"


def test_steering_waits_for_the_whole_batch_then_is_injected():
    queue = []
    tool = make_tool(
        "t", lambda i, a, c: (queue.append(user_message("steer!")), ToolResult.text(i))[1]
    )
    model = ScriptedModel(
        tool_reply(call("1", "t"), call("2", "t"), call("3", "t")), text_reply("ok")
    )

    def steering():
        drained, queue[:] = list(queue), []
        return drained

    new, events = run(model, [tool], get_steering_messages=steering)
    assert [text_of(r) for r in results_of(new)] == ["1", "2", "3"]  # nothing skipped
    assert roles(new) == ["user", "assistant"] + ["toolResult"] * 3 + ["user"] * 3 + ["assistant"]
    assert roles(model.contexts[1].messages)[-3:] == ["user", "user", "user"]


def test_follow_up_runs_after_the_agent_would_stop():
    follow = [user_message("and then?")]
    model = ScriptedModel(text_reply("first"), text_reply("second"))
    new, events = run(model, get_follow_up_messages=lambda: [follow.pop()] if follow else [])
    assert [text_of(m) for m in new] == ["go", "first", "and then?", "second"]
    assert sum(1 for e in events if e.type == "turn_start") == 2
    assert types(events).count("agent_end") == 1


def test_transform_context_and_convert_per_call_without_touching_context():
    calls = []

    def transform(messages):
        calls.append(len(messages))
        return [*messages, user_message("injected")]

    model = ScriptedModel(tool_reply(call("1", "echo", text="a")), text_reply("ok"))
    convert = lambda ms: [m for m in ms if m["role"] != "custom"]  # noqa: E731
    custom = {"role": "custom", "customType": "x", "content": "c", "display": True, "timestamp": 1}
    new, _ = run(
        model, [echo_tool()], messages=[custom], transform_context=transform, convert_to_llm=convert
    )
    assert calls == [2, 4]
    assert text_of(model.contexts[0].messages[-1]) == "injected"
    assert all(m["role"] != "custom" for m in model.contexts[0].messages)
    assert not any(text_of(m) == "injected" for m in new if m["role"] == "user")
    assert model.contexts[0].tools[0]["name"] == "echo"


def test_already_aborted_signal_records_aborted_message_without_a_model_call():
    model = ScriptedModel()
    signal = AbortSignal()
    signal.abort()
    events = []
    context = LoopContext("s", [], [])
    new = run_agent_loop(
        [user_message("x")],
        context,
        LoopConfig(stream_fn=model, model=MODEL),
        events.append,
        signal,
    )
    assert model.calls == 0
    final = new[-1]
    assert final["stopReason"] == "aborted" and final["errorMessage"] == "Request was aborted"
    assert (final["api"], final["provider"], final["model"]) == ("fake-api", "fake", "fake-1")
    assert final["content"] == [] and final["usage"]["totalTokens"] == 0


def test_stream_without_final_event_becomes_error_message():
    partial = assistant([{"type": "text", "text": "half"}])
    model = ScriptedModel(lambda c, o: iter([StreamEvent("start", partial=partial)]))
    new, _ = run(model)
    assert new[-1]["stopReason"] == "error"
    assert new[-1]["content"] == [{"type": "text", "text": "half"}]


def test_tool_updates_are_emitted_in_the_loop_thread():
    def progress(_id, args, ctx):
        for i in range(3):
            ctx.on_update(ToolResult.text(f"{i}"))
        return ToolResult.text("done")

    threads = []
    model = ScriptedModel(tool_reply(call("1", "p"), call("2", "p")), text_reply("ok"))
    events = []

    def emit(event):
        threads.append(threading.get_ident())
        events.append(event)

    cfg = LoopConfig(stream_fn=model, model=MODEL)
    context = LoopContext("s", [], [make_tool("p", progress)])
    run_agent_loop([user_message("x")], context, cfg, emit, AbortSignal())
    assert set(threads) == {threading.get_ident()}
    updates = [e for e in events if e.type == "tool_execution_update"]
    assert len(updates) == 6
    for call_id in ("1", "2"):
        mine = [
            text_of({"content": e.data["partial_result"].content})
            for e in updates
            if e.data["tool_call_id"] == call_id
        ]
        assert mine == ["0", "1", "2"]


def test_continue_requires_a_non_assistant_last_message():
    cfg = LoopConfig(stream_fn=ScriptedModel(), model=MODEL)
    with pytest.raises(ValueError, match="no messages"):
        run_agent_loop_continue(LoopContext("s", []), cfg, lambda e: None, AbortSignal())
    with pytest.raises(ValueError, match="Cannot continue from message role: assistant"):
        ctx = LoopContext("s", [text_reply("x")])
        run_agent_loop_continue(ctx, cfg, lambda e: None, AbortSignal())
    model = ScriptedModel(text_reply("again"))
    events = []
    ctx = LoopContext("s", [user_message("retry me")])
    new = run_agent_loop_continue(
        ctx, LoopConfig(stream_fn=model, model=MODEL), events.append, AbortSignal()
    )
    assert roles(new) == ["assistant"]
    assert types(events)[:3] == ["agent_start", "turn_start", "message_start"]


def test_exceptions_from_callbacks_propagate_to_the_caller():
    model = ScriptedModel(text_reply("x"))

    def broken(messages):
        raise RuntimeError("context hook broke")

    with pytest.raises(RuntimeError, match="context hook broke"):
        run(model, transform_context=broken)


PI_VALIDATION = json.loads(
    (Path(__file__).parent / "fixtures" / "pi_validation" / "tool_arguments.json").read_text(
        encoding="utf-8"
    )
)


@pytest.mark.parametrize("case", PI_VALIDATION["cases"], ids=lambda c: json.dumps(c["arguments"]))
def test_argument_validation_matches_pi(case):
    schema = PI_VALIDATION["schemas"][case["schema"]]
    if "ok" in case:
        assert validate_tool_arguments("t", schema, case["arguments"]) == case["ok"]
    else:
        with pytest.raises(ToolArgumentsError) as raised:
            validate_tool_arguments("t", schema, case["arguments"])
        assert str(raised.value) == case["error"]


def test_should_stop_after_turn_ends_the_run_early():
    model = ScriptedModel(tool_reply(call("1", "echo", text="x")), text_reply("never"))
    seen = []

    def stop(message, tool_results):
        seen.append((message["stopReason"], len(tool_results)))
        return True

    new, events = run(model, [echo_tool()], should_stop_after_turn=stop)
    assert model.calls == 1 and seen == [("toolUse", 1)]
    assert roles(new) == ["user", "assistant", "toolResult"]
    assert types(events)[-2:] == ["turn_end", "agent_end"]
