"""``tether session stats FILE [--json]`` and ``tether run --json``'s event shapes, on sessions
written by ``tether run`` against the loopback OpenAI server.

The expected numbers are worked out here from ``tether session context --json`` (whose
messages are pi's, see the context goldens), not from the stats code."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.cli_in_process import run_in_process
from tests.servers.base import Reply, ToolCall, Usage
from tests.servers.openai_server import OpenAIServer
from tests.store_helpers import run_tether

COST = {"input": 3.0, "output": 15.0, "cacheRead": 0.3, "cacheWrite": 3.75}


def _env(home: Path) -> dict[str, str | None]:
    return {"TETHER_HOME": str(home), "TETHER_FSYNC": "0", "TETHER_LOAD_PLUGINS": ""}


def _setup(tmp_path: Path, server: OpenAIServer) -> tuple[Path, Path]:
    home, cwd = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    cwd.mkdir()
    entry = {"baseUrl": server.base_url, "api": server.api}
    entry["models"] = [server.model_entry("test-model", contextWindow=50000, cost=COST)]
    (home / "models.json").write_text(json.dumps({"providers": {"test": entry}}))
    return home, cwd


def _session_file(home: Path) -> Path:
    [file] = (home / "sessions").rglob("*.jsonl")
    return file


def _context(file: Path, env: dict[str, str | None]) -> dict[str, Any]:
    done = run_in_process("session", "context", str(file), "--json", env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _stats(file: Path, env: dict[str, str | None]) -> dict[str, Any]:
    done = run_in_process("session", "stats", str(file), "--json", env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_session_stats_match_the_context_and_list_compactions(tmp_path: Path) -> None:
    with OpenAIServer() as server:
        home, cwd = _setup(tmp_path, server)
        env = _env(home)
        server.push(
            Reply(
                tool_calls=[ToolCall("bash", {"command": "echo hi"}, id="c1")],
                usage=Usage(input=100, output=20, cache_read=30, cache_write=0),
            ),
            Reply(text="first done " * 40, usage=Usage(input=150, output=40, cache_read=30)),
            Reply(text="second done", usage=Usage(input=300, output=10, cache_write=7)),
        )
        first = run_tether("run", "--provider", "test", "do the first thing", cwd=cwd, env=env)
        assert first.returncode == 0, first.stderr
        file = _session_file(home)
        # the second run and the compaction below take their usual paths in this process
        second = run_in_process("run", "--session", str(file), "do the second", cwd=cwd, env=env)
        assert second.returncode == 0, second.stderr

    messages = _context(file, env)["messages"]
    assistants = [m for m in messages if m["role"] == "assistant"]
    stats = _stats(file, env)
    assert stats["sessionFile"] == str(file)
    assert (stats["userMessages"], stats["assistantMessages"]) == (2, 3)
    assert (stats["toolCalls"], stats["toolResults"], stats["totalMessages"]) == (1, 1, 6)
    for key in ("input", "output", "cacheRead", "cacheWrite"):
        assert stats["tokens"][key] == sum(m["usage"][key] for m in assistants)
    assert stats["tokens"]["total"] == sum(stats["tokens"][k] for k in COST)
    assert abs(stats["cost"] - sum(m["usage"]["cost"]["total"] for m in assistants)) < 1e-12
    assert stats["cost"] > 0
    last = assistants[-1]["usage"]
    tokens = last["input"] + last["output"] + last["cacheRead"] + last["cacheWrite"]
    assert stats["contextUsage"] == {
        "tokens": tokens,
        "contextWindow": 50000,
        "percent": tokens / 50000 * 100,
    }
    assert stats["compactions"] == []

    compacted = run_in_process(
        "session", "compact", str(file), "--summarizer", "offline", "--keep", "30", env=env
    )
    assert compacted.returncode == 0, compacted.stderr
    entry = next(
        e for e in map(json.loads, file.read_text().splitlines()) if e["type"] == "compaction"
    )
    after = _stats(file, env)
    assert after["contextUsage"] == {"tokens": None, "contextWindow": 50000, "percent": None}
    [record] = after["compactions"]
    assert record["id"] == entry["id"] and record["timestamp"] == entry["timestamp"]
    assert record["tokensBefore"] == entry["tokensBefore"] > 0
    assert 0 < record["tokensAfter"] < record["tokensBefore"]
    assert record["summarizer"] == entry["details"]["summarizer"] == "offline"
    assert after["totalMessages"] == len(_context(file, env)["messages"])
    # the whole file's figures beside the context's, as `session show` counts them
    assert stats["inFile"] == {k: stats[k] for k in stats["inFile"]}
    assert after["inFile"] == stats["inFile"] and after["tokens"] != stats["tokens"]
    assert (after["inFile"]["totalMessages"], after["inFile"]["userMessages"]) == (6, 2)

    text = run_tether("session", "stats", str(file), env=env)
    assert text.returncode == 0, text.stderr
    assert "messages:" in text.stdout and "compactions: 1" in text.stdout
    lines = text.stdout.splitlines()
    total = after["totalMessages"]
    assert any(line.startswith(f"messages:   {total} in context (") for line in lines)
    assert "            6 in the file (2 user, 3 assistant, 1 tool results)" in lines
    assert "tool calls: 0 in context, 1 in the file" in lines
    assert f"${stats['cost']:.4f} in the file" in text.stdout
    assert f"{entry['tokensBefore']} → ~{record['tokensAfter']} tokens" in text.stdout
    assert "(summarizer: offline)" in text.stdout
    missing = run_in_process("session", "stats", str(tmp_path / "nope.jsonl"), env=env)
    assert missing.returncode != 0 and missing.stderr.startswith("tether: error: ")
    assert "Traceback" not in missing.stderr


def test_run_json_prints_pis_json_mode_events(tmp_path: Path) -> None:
    with OpenAIServer() as server:
        home, cwd = _setup(tmp_path, server)
        server.push(
            Reply(tool_calls=[ToolCall("bash", {"command": "echo hi"}, id="c1")]),
            Reply(text="done"),
        )
        done = run_tether("--mode", "json", "--provider", "test", "go", cwd=cwd, env=_env(home))
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert records[0]["type"] == "session" and records[0]["version"] == 3
    kinds = [r["type"] for r in records[1:]]
    assert kinds[:4] == ["agent_start", "turn_start", "message_start", "message_end"]
    assert kinds[-1] == "agent_end"
    fields = {
        "agent_start": {"type"},
        "turn_start": {"type"},
        "turn_end": {"type", "message", "toolResults"},
        "message_start": {"type", "message"},
        "message_update": {"type", "message", "assistantMessageEvent"},
        "message_end": {"type", "message"},
        "tool_execution_start": {"type", "toolCallId", "toolName", "args"},
        "tool_execution_update": {"type", "toolCallId", "toolName", "args", "partialResult"},
        "tool_execution_end": {"type", "toolCallId", "toolName", "result", "isError"},
        "agent_end": {"type", "messages"},
    }
    for record in records[1:]:
        assert set(record) == fields[record["type"]], record["type"]
    streamed = [r["assistantMessageEvent"]["type"] for r in records if "assistantMessageEvent" in r]
    assert streamed[0] == "toolcall_start" and streamed[-1] == "text_end"
    assert streamed.count("toolcall_end") == 1 and streamed.count("text_start") == 1
