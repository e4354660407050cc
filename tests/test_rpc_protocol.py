"""``tether --mode rpc`` as a real subprocess: bad input, every command's response shape, the
events (pi's rpc.md / rpc-types.d.ts), against the loopback OpenAI server or the faux model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.plugin_fakes import write_distribution
from tests.rpc_helpers import RpcProcess, write_models
from tests.servers.base import Reply, ToolCall
from tests.servers.openai_server import OpenAIServer

STATE_KEYS = {
    "model",
    "thinkingLevel",
    "isStreaming",
    "isCompacting",
    "steeringMode",
    "followUpMode",
    "sessionFile",
    "sessionId",
    "autoCompactionEnabled",
    "messageCount",
    "pendingMessageCount",
}
MODEL_KEYS = {"id", "name", "api", "provider", "baseUrl", "reasoning", "input", "cost"}
MODEL_KEYS |= {"contextWindow", "maxTokens"}
STATS_KEYS = {"sessionFile", "sessionId", "userMessages", "assistantMessages", "toolCalls"}
STATS_KEYS |= {"toolResults", "totalMessages", "tokens", "cost", "contextUsage"}


def _dirs(tmp_path: Path) -> tuple[Path, Path]:
    home, cwd = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    cwd.mkdir()
    return home, cwd


def test_bad_lines_get_pis_error_responses_and_the_process_goes_on(tmp_path: Path) -> None:
    rpc = RpcProcess(*_dirs(tmp_path), "--provider", "faux", "--no-session")
    rpc.send_raw(b"not json\n")
    rpc.send_raw(b'{"type": "get_state"\n')
    rpc.send_raw(b"[1, 2]\n")
    rpc.send_raw(b'{"type": "no_such_command", "id": "x1"}\n')
    rpc.send_raw(b'{"id": "x2"}\n')
    rpc.send_raw(b'{"type": "set_model", "id": "x3"}\n')  # fields missing
    rpc.send_raw(b'{"type": "prompt", "id": "x4", "message": 42}\n')
    rpc.send_raw(b'\xff\xfe{"type": "get_state"}\n')  # not UTF-8
    rpc.send_raw(b"\n   \n")  # blank lines are ignored
    rpc.send_raw(b'{"type": "get_state", "id": "crlf"}\r\n')
    records = [rpc.next() for _ in range(9)]
    parse = {"type": "response", "command": "parse", "success": False}
    for record in (records[0], records[1], records[7]):
        assert {k: record[k] for k in parse} == parse
        assert record["error"].startswith("Failed to parse command: ")
        assert "id" not in record
    assert records[2] == {
        "type": "response",
        "success": False,
        "error": "Unknown command: undefined",
    }
    assert records[3] == {
        "type": "response",
        "command": "no_such_command",
        "success": False,
        "error": "Unknown command: no_such_command",
    }  # without the id, as pi answers it
    assert records[4] == {
        "type": "response",
        "success": False,
        "error": "Unknown command: undefined",
    }
    assert records[5]["id"] == "x3" and records[5]["success"] is False
    assert records[5]["command"] == "set_model" and records[5]["error"]
    assert records[6] == {
        "id": "x4",
        "type": "response",
        "command": "prompt",
        "success": False,
        "error": "message must be a string",
    }
    assert records[8]["id"] == "crlf" and records[8]["success"] is True
    # a line holding U+2028 inside a JSON string is one record (LF framing only)
    name = "line\u2028separator"
    assert rpc.data({"type": "set_session_name", "name": name}) is None
    assert rpc.data({"type": "get_state"})["sessionName"] == name
    # not JSON for pi's JSON.parse either: NaN, Infinity, a number past a double; too deep
    for raw in (
        b'{"type": "get_state", "id": NaN}',
        b'{"type": "get_state", "id": 1e999}',
        b'{"type": "get_state", "x": -Infinity}',
        b"[" * 5000 + b"]" * 5000,
    ):
        rpc.send_raw(raw + b"\n")
        refused = rpc.next()
        assert {k: refused[k] for k in parse} == parse, refused
    assert rpc.data({"type": "get_state"})["sessionName"] == name  # and it goes on
    for wrong in ({"type": "set_session_name", "name": 123},
                  {"type": "export_html", "outputPath": 123}):  # fmt: skip
        answer = rpc.call(wrong)
        assert answer["success"] is False and answer["error"].endswith("must be a string")
    assert all(raw.count(b"\n") == 1 for raw in rpc.raw)
    code, err = rpc.close()
    assert code == 0 and "Traceback" not in err


def test_every_command_answers_in_pis_shape(tmp_path: Path) -> None:
    home, cwd = _dirs(tmp_path)
    skill = cwd / ".tether" / "skills" / "greet"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: greet\ndescription: Say hello.\n---\nSay hello.\n")
    rpc = RpcProcess(home, cwd, "--provider", "faux")
    state = rpc.data({"type": "get_state"})
    assert STATE_KEYS <= set(state) and set(state["model"]) == MODEL_KEYS
    assert state["isStreaming"] is False and state["messageCount"] == 0

    events = rpc.prompt("hello")
    assert [e["type"] for e in events[:2]] == ["agent_start", "turn_start"]
    assert rpc.data({"type": "get_last_assistant_text"}) == {"text": "You said: hello"}
    messages = rpc.data({"type": "get_messages"})["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant"]

    models = rpc.data({"type": "get_available_models"})["models"]
    assert [m["id"] for m in models] == ["faux-1"] and set(models[0]) == MODEL_KEYS
    assert (
        rpc.data({"type": "set_model", "provider": "faux", "modelId": "faux-1"})["id"] == "faux-1"
    )
    missing = rpc.call({"type": "set_model", "provider": "nope", "modelId": "x"})
    assert missing["success"] is False and missing["error"] == "Model not found: nope/x"
    assert rpc.data({"type": "cycle_model"}) is None  # one model only
    assert rpc.data({"type": "set_thinking_level", "level": "low"}) is None
    assert rpc.data({"type": "cycle_thinking_level"}) == {"level": "medium"}
    bad = rpc.call({"type": "set_thinking_level", "level": "extreme"})
    assert bad["success"] is False and "extreme" in bad["error"]
    for kind in ("set_steering_mode", "set_follow_up_mode"):
        assert rpc.data({"type": kind, "mode": "all"}) is None
        assert rpc.call({"type": kind, "mode": "sometimes"})["success"] is False
    assert rpc.data({"type": "set_auto_compaction", "enabled": False}) is None
    assert rpc.data({"type": "set_auto_retry", "enabled": False}) is None
    assert rpc.data({"type": "abort_retry"}) is None
    assert rpc.data({"type": "abort"}) is None
    assert rpc.data({"type": "abort_bash"}) is None
    state = rpc.data({"type": "get_state"})
    assert (state["thinkingLevel"], state["steeringMode"], state["followUpMode"]) == (
        "medium",
        "all",
        "all",
    )
    assert state["autoCompactionEnabled"] is False

    bash = rpc.data({"type": "bash", "command": "echo out; echo err >&2; exit 3"})
    assert bash == {"output": "out\nerr\n", "exitCode": 3, "cancelled": False, "truncated": False}
    long = rpc.data({"type": "bash", "command": "seq 1 5000"})
    assert long["truncated"] is True and long["output"].endswith("5000\n")
    assert Path(long["fullOutputPath"]).read_text().startswith("1\n2\n")

    stats = rpc.data({"type": "get_session_stats"})
    assert set(stats) == STATS_KEYS
    assert (stats["userMessages"], stats["assistantMessages"], stats["totalMessages"]) == (1, 1, 4)
    assert set(stats["tokens"]) == {"input", "output", "cacheRead", "cacheWrite", "total"}
    assert set(stats["contextUsage"]) == {"tokens", "contextWindow", "percent"}

    compact = rpc.call({"type": "compact"})
    assert compact["success"] is False and compact["error"]  # nothing to compact yet
    ended = rpc.seen_or_next("compaction_end")
    assert ended["result"] is None and ended["errorMessage"].startswith("Compaction failed: ")
    commands = rpc.data({"type": "get_commands"})["commands"]
    assert [(c["name"], c["source"], c["description"]) for c in commands] == [
        ("skill:greet", "skill", "Say hello.")
    ]
    info = commands[0]["sourceInfo"]
    assert info["path"] == str(skill / "SKILL.md") and info["scope"] == "project"
    expanded = next(
        e["message"] for e in rpc.prompt("/skill:greet Ann") if e["type"] == "message_end"
    )
    text = expanded["content"][0]["text"]
    assert text.startswith('<skill name="greet"') and text.endswith("</skill>\n\nAnn")
    html = rpc.call({"type": "export_html", "outputPath": str(tmp_path / "out.html")})
    if html["success"]:  # the renderer of `session export --html` is installed
        assert Path(html["data"]["path"]).read_text().lstrip().lower().startswith("<!doctype")
    else:
        assert html["error"] == "HTML export is not available in this tether"

    forks = rpc.data({"type": "get_fork_messages"})["messages"]
    assert [m["text"] for m in forks] == ["hello", text] and set(forks[0]) == {"entryId", "text"}
    first_file = rpc.data({"type": "get_state"})["sessionFile"]
    wrong = rpc.call({"type": "fork", "entryId": "nosuch"})
    assert wrong["success"] is False and wrong["error"] == "Invalid entry ID for forking"
    forked = rpc.data({"type": "fork", "entryId": forks[0]["entryId"]})
    assert forked == {"text": "hello", "cancelled": False}
    assert rpc.data({"type": "get_state"})["messageCount"] == 0  # before the user message
    empty = rpc.call({"type": "set_session_name", "name": "   "})
    assert empty == {
        "id": empty["id"],
        "type": "response",
        "command": "set_session_name",
        "success": False,
        "error": "Session name cannot be empty",
    }
    assert rpc.data({"type": "switch_session", "sessionPath": first_file}) == {"cancelled": False}
    assert rpc.data({"type": "get_state"})["sessionFile"] == first_file
    assert rpc.data({"type": "clone"}) == {"cancelled": False}
    cloned = rpc.data({"type": "get_state"})
    assert cloned["sessionFile"] != first_file and cloned["messageCount"] == 6
    assert rpc.data({"type": "new_session", "parentSession": first_file}) == {"cancelled": False}
    fresh = rpc.data({"type": "get_state"})
    assert fresh["sessionId"] != cloned["sessionId"] and fresh["messageCount"] == 0
    code, err = rpc.close()
    assert code == 0, err


def test_streaming_prompts_queue_and_announce_the_queues(tmp_path: Path) -> None:
    home, cwd = _dirs(tmp_path)
    with OpenAIServer() as server:
        write_models(home, server)
        server.push(
            Reply(tool_calls=[ToolCall("bash", {"command": "sleep 1"}, id="c1")]),
            Reply(text="after steering"),
            Reply(text="after the follow-up"),
        )
        rpc = RpcProcess(home, cwd, "--provider", "test", "--no-session")
        assert rpc.call({"type": "prompt", "message": "go"})["success"] is True
        rpc.until(lambda r: r.get("type") == "tool_execution_start")
        busy = rpc.call({"type": "prompt", "message": "again"})
        assert busy["success"] is False and "streamingBehavior" in busy["error"]
        steer = rpc.call({"type": "prompt", "message": "steer me", "streamingBehavior": "steer"})
        assert steer["success"] is True
        assert rpc.data({"type": "follow_up", "message": "then this"}) is None
        assert rpc.data({"type": "get_state"})["pendingMessageCount"] == 2
        rpc.seen_or_next("agent_end")
        queues = [(r["steering"], r["followUp"]) for r in rpc.seen if r["type"] == "queue_update"]
        assert queues == [
            (["steer me"], []),
            (["steer me"], ["then this"]),
            ([], ["then this"]),
            ([], []),
        ]
        users = [
            r["message"]["content"][0]["text"]
            for r in rpc.seen
            if r["type"] == "message_start" and r["message"]["role"] == "user"
        ][1:]
        assert users == ["steer me", "then this"]
        assert rpc.close()[0] == 0


def test_tool_events_and_streaming_updates_have_pis_fields(tmp_path: Path) -> None:
    home, cwd = _dirs(tmp_path)
    with OpenAIServer() as server:
        write_models(home, server, reasoning=True)
        server.push(
            Reply(
                thinking="hmm",
                tool_calls=[ToolCall("bash", {"command": "echo hi"}, id="c1")],
            ),
            Reply(text="all done"),
        )
        rpc = RpcProcess(home, cwd, "--model", "test/test-model:low", "--no-session")
        events = rpc.prompt("run it")
        assert rpc.data({"type": "get_state"})["thinkingLevel"] == "low"
    updates = [e["assistantMessageEvent"] for e in events if e["type"] == "message_update"]
    kinds = [u["type"] for u in updates]
    for block in ("thinking", "toolcall", "text"):
        start, end = kinds.index(f"{block}_start"), kinds.index(f"{block}_end")
        assert start < kinds.index(f"{block}_delta") < end
    assert all("partial" in u and "contentIndex" in u for u in updates if u["type"] != "start")
    tool_end = next(u for u in updates if u["type"] == "toolcall_end")
    assert tool_end["toolCall"]["name"] == "bash" and tool_end["toolCall"]["id"] == "c1"
    assert next(u for u in updates if u["type"] == "text_end")["content"] == "all done"
    by_type: dict[str, dict[str, Any]] = {}
    for event in events:
        by_type.setdefault(event["type"], event)
    assert set(by_type["tool_execution_start"]) == {"type", "toolCallId", "toolName", "args"}
    assert set(by_type["tool_execution_update"]) == {
        "type",
        "toolCallId",
        "toolName",
        "args",
        "partialResult",
    }
    end = by_type["tool_execution_end"]
    assert set(end) == {"type", "toolCallId", "toolName", "result", "isError"}
    assert set(end["result"]) == {"content", "details"}
    assert by_type["turn_start"] == {"type": "turn_start"}
    assert set(by_type["turn_end"]) == {"type", "message", "toolResults"}
    assert set(by_type["agent_end"]) == {"type", "messages"}
    assert set(by_type["message_end"]) == {"type", "message"}


def test_a_failing_plugin_is_an_extension_error_event(tmp_path: Path) -> None:
    home, cwd = _dirs(tmp_path)
    site = tmp_path / "site"
    source = (
        "from tether.hookspecs import hookimpl\n\n"
        "@hookimpl\n"
        "def agent_event(event, session):\n"
        "    if event.type == 'turn_start':\n"
        "        raise RuntimeError('boom at turn start')\n"
    )
    write_distribution(
        site, "tether-fault", "1.0", {"fault": "fault_plugin"}, {"fault_plugin": source}
    )
    env = {"PYTHONPATH": f"{site}:{Path(__file__).resolve().parent.parent}"}
    env["TETHER_LOAD_PLUGINS"] = "fault"
    rpc = RpcProcess(home, cwd, "--provider", "faux", "--no-session", extra_env=env)
    events = rpc.prompt("hi")
    errors = [e for e in events if e["type"] == "extension_error"]
    assert errors == [
        {
            "type": "extension_error",
            "extensionPath": "fault",
            "event": "agent_event",
            "error": errors[0]["error"],
        }
    ]
    assert "boom at turn start" in errors[0]["error"]
    assert events[-1]["type"] == "agent_end"  # the run went on
    assert rpc.close()[0] == 0


def test_abort_ends_the_streaming_answer_and_sigterm_ends_the_process(tmp_path: Path) -> None:
    home, cwd = _dirs(tmp_path)
    with OpenAIServer() as server:
        write_models(home, server)
        server.push(Reply(text="y" * 400, chunk_size=4, chunk_delay=0.05))
        rpc = RpcProcess(home, cwd, "--provider", "test")
        assert rpc.call({"type": "prompt", "message": "talk"})["success"] is True
        rpc.until(lambda r: r.get("type") == "message_update")
        assert rpc.data({"type": "abort"}) is None  # answered once the run has ended (pi)
        [ended] = [r for r in rpc.seen if r["type"] == "agent_end"]
        assert ended["messages"][-1]["stopReason"] == "aborted"
        file = rpc.data({"type": "get_state"})["sessionFile"]
        rpc.proc.terminate()
        assert rpc.proc.wait(20) == 143
    roles = [json.loads(line).get("message", {}).get("role") for line in Path(file).open()]
    assert roles.count("assistant") == 1  # the aborted answer is in the session


def test_retries_and_compaction_are_announced_with_pis_events(tmp_path: Path) -> None:
    home, cwd = _dirs(tmp_path)
    settings = {
        "retry": {"baseDelayMs": 10, "maxRetries": 2},
        "compaction": {"summarizer": "offline", "keepRecentTokens": 20},
    }
    (home / "settings.json").write_text(json.dumps(settings))
    with OpenAIServer() as server:
        write_models(home, server)
        server.push(
            Reply(status=503, error_message="overloaded"),
            Reply(text="first answer " * 30),
            Reply(text="second answer " * 30),
        )
        rpc = RpcProcess(home, cwd, "--provider", "test")
        failed = rpc.prompt("one")  # the failed call's run ends, then the retry is announced
        assert failed[-1]["messages"][-1]["stopReason"] == "error"
        start = rpc.next()
        assert set(start) == {"type", "attempt", "maxAttempts", "delayMs", "errorMessage"}
        assert (start["type"], start["attempt"], start["maxAttempts"]) == ("auto_retry_start", 1, 2)
        assert "overloaded" in start["errorMessage"] and start["delayMs"] == 10
        retried = rpc.until(lambda r: r.get("type") == "auto_retry_end")
        assert retried[0]["type"] == "agent_start" and retried[-2]["type"] == "agent_end"
        assert retried[-1] == {"type": "auto_retry_end", "success": True, "attempt": 1}
        rpc.prompt("two")

        response = rpc.call({"type": "compact", "customInstructions": "keep it short"})
        assert response["success"] is True
        assert set(response["data"]) == {"summary", "firstKeptEntryId", "tokensBefore", "details"}
        start, end = [r for r in rpc.seen if r["type"].startswith("compaction_")]
        assert start == {"type": "compaction_start", "reason": "manual"}
        assert end["result"] == response["data"]
        assert (end["reason"], end["aborted"], end["willRetry"]) == ("manual", False, False)
        stats = rpc.data({"type": "get_session_stats"})
        assert stats["contextUsage"]["tokens"] is None  # unknown until the next answer
        assert rpc.close()[0] == 0


def test_abort_retry_cancels_the_wait(tmp_path: Path) -> None:
    home, cwd = _dirs(tmp_path)
    settings = {"retry": {"baseDelayMs": 30000, "maxRetries": 3}}
    (home / "settings.json").write_text(json.dumps(settings))
    with OpenAIServer() as server:
        write_models(home, server)
        server.push(Reply(status=503, error_message="overloaded"))
        rpc = RpcProcess(home, cwd, "--provider", "test", "--no-session")
        rpc.prompt("one")
        assert rpc.next()["type"] == "auto_retry_start"
        assert rpc.data({"type": "abort_retry"}) is None
        end = rpc.seen_or_next("auto_retry_end")  # may come before the response
        assert end == {
            "type": "auto_retry_end",
            "success": False,
            "attempt": 1,
            "finalError": "Retry cancelled",
        }
        assert len(server.requests) == 1
        assert rpc.close()[0] == 0


def test_a_prompt_with_images_sends_them(tmp_path: Path) -> None:
    home, cwd = _dirs(tmp_path)
    image = {"type": "image", "data": "aGVsbG8=", "mimeType": "image/png"}
    with OpenAIServer() as server:
        write_models(home, server)
        server.push(Reply(text="a picture"))
        rpc = RpcProcess(home, cwd, "--provider", "test", "--no-session")
        events = rpc.prompt("what is this?", images=[image])
        user = next(e["message"] for e in events if e["type"] == "message_start")
        assert user["content"] == [{"type": "text", "text": "what is this?"}, image]
        sent = json.dumps(server.bodies[0]["messages"])
        assert "data:image/png;base64,aGVsbG8=" in sent
        bad = rpc.call({"type": "prompt", "message": "x", "images": [{"type": "file"}]})
        assert bad["success"] is False and "images" in bad["error"]
        assert rpc.close()[0] == 0


SLOW_COUNTER = """
import time
from tether.hookspecs import hookimpl

def count(messages, model):
    time.sleep(0.7)
    return [len(str(m)) // 4 for m in messages]

@hookimpl
def register_token_counters(register):
    register("slow", count, default=True)
"""


def test_session_commands_wait_for_the_checks_after_a_run(tmp_path: Path) -> None:
    # pi's clients send the next command as soon as they read agent_end; tether still checks
    # the context size then (here with a slow token counter): clone waits instead of failing
    home, cwd = _dirs(tmp_path)
    site = tmp_path / "site"
    write_distribution(
        site, "tether-slow", "1.0", {"slow": "slow_plugin"}, {"slow_plugin": SLOW_COUNTER}
    )
    env = {"PYTHONPATH": f"{site}:{Path(__file__).resolve().parent.parent}"}
    env["TETHER_LOAD_PLUGINS"] = "slow"
    with OpenAIServer() as server:
        write_models(home, server)
        server.push(Reply(text="no usage reported", usage=None))  # so the whole context is counted
        rpc = RpcProcess(home, cwd, "--provider", "test", extra_env=env)
        rpc.prompt("hello")
        assert rpc.data({"type": "clone"}) == {"cancelled": False}
        assert rpc.data({"type": "get_state"})["messageCount"] == 2
        assert rpc.close()[0] == 0


def test_prompts_sent_back_to_back_run_in_the_order_sent(tmp_path: Path) -> None:
    """A prompt, then two follow-up prompts written before its run started: the later two are
    queued (answered at once), and the model sees first, second, third — every time."""
    lines = [
        {"id": "1", "type": "prompt", "message": "first"},
        {"id": "2", "type": "prompt", "message": "second", "streamingBehavior": "followUp"},
        {"id": "3", "type": "prompt", "message": "third", "streamingBehavior": "followUp"},
    ]
    for attempt in range(5):
        (tmp_path / str(attempt)).mkdir()
        rpc = RpcProcess(*_dirs(tmp_path / str(attempt)), "--provider", "faux", "--no-session")
        rpc.send_raw(b"".join(json.dumps(line).encode() + b"\n" for line in lines))
        rpc.until(lambda r: r.get("type") == "agent_end")
        users = [
            r["message"]["content"][0]["text"]
            for r in rpc.seen
            if r.get("type") == "message_start" and r["message"]["role"] == "user"
        ]
        assert users == ["first", "second", "third"]
        answers = {r["id"]: r["success"] for r in rpc.seen if r.get("type") == "response"}
        assert answers == {"1": True, "2": True, "3": True}
        assert any(r.get("type") == "queue_update" for r in rpc.seen)
        code, err = rpc.close()
        assert code == 0, err


NOISY_PLUGIN = """
import os, subprocess, sys
from tether.hookspecs import hookimpl

print("noise at import")
os.write(1, b"raw noise at import\\n")

def _noise(where):
    print(f"print in {where}")
    sys.stdout.write(f"sys.stdout in {where}\\n")
    sys.stdout.flush()
    sys.__stdout__.write(f"sys.__stdout__ in {where}\\n")
    sys.__stdout__.flush()
    os.write(1, f"fd 1 in {where}\\n".encode())
    subprocess.run(["echo", f"a subprocess in {where}"], check=True)

@hookimpl
def register_commands(app):
    _noise("register_commands")

@hookimpl
def session_start(session, reason):
    _noise("session_start")

@hookimpl
def input(event, session):
    _noise("input")

@hookimpl
def context(event, session):
    _noise("context")

@hookimpl
def agent_event(event, session):
    if event.type == "turn_start":
        _noise("agent_event")
"""


def test_whatever_a_plugin_prints_goes_to_stderr_never_to_the_protocol(tmp_path: Path) -> None:
    home, cwd = _dirs(tmp_path)
    site = tmp_path / "site"
    write_distribution(
        site, "tether-noisy", "1.0", {"noisy": "noisy_plugin"}, {"noisy_plugin": NOISY_PLUGIN}
    )
    env = {"PYTHONPATH": f"{site}:{Path(__file__).resolve().parent.parent}"}
    env["TETHER_LOAD_PLUGINS"] = "noisy"
    rpc = RpcProcess(home, cwd, "--provider", "faux", "--no-session", extra_env=env)
    events = rpc.prompt("hi")
    assert events[-1]["type"] == "agent_end"
    code, stderr = rpc.close()  # fails on any stdout line that is not JSON
    assert code == 0, stderr
    assert rpc.raw and all(isinstance(json.loads(line), dict) for line in rpc.raw)
    assert "noise at import" in stderr and "raw noise at import" in stderr
    for where in ("register_commands", "session_start", "input", "context", "agent_event"):
        for how in ("print in", "sys.stdout in", "sys.__stdout__ in", "fd 1 in", "a subprocess in"):
            assert f"{how} {where}\n" in stderr, (how, where, stderr)


def test_a_follow_up_that_takes_long_to_read_is_still_queued(tmp_path: Path) -> None:
    """The reader is slow on the second line (7 MB of JSON to read and parse) while the
    first prompt's run could go on: the run waits until the lines written with it are handled,
    as pi handles a whole chunk of stdin before the run proceeds."""
    padding = list(range(1_000_000))  # a field the command does not read, slow to parse
    lines = [
        {"id": "1", "type": "prompt", "message": "first"},
        {"id": "2", "type": "prompt", "message": "second", "streamingBehavior": "followUp"},
        {"id": "3", "type": "prompt", "message": "third", "streamingBehavior": "followUp"},
    ]
    lines[1]["padding"] = padding
    rpc = RpcProcess(*_dirs(tmp_path), "--provider", "faux", "--no-session")
    rpc.send_raw(b"".join(json.dumps(line).encode() + b"\n" for line in lines))
    rpc.until(lambda r: r.get("type") == "agent_end")
    users = [
        r["message"]["content"][0]["text"]
        for r in rpc.seen
        if r.get("type") == "message_start" and r["message"]["role"] == "user"
    ]
    assert users == ["first", "second", "third"]
    code, err = rpc.close()
    assert code == 0, err
