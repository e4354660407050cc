"""pi's own ``RpcClient`` (npm ``@mariozechner/pi-coding-agent``, pinned in tests/.node/) drives
``tether --mode rpc`` against the loopback OpenAI-compatible server: prompts with tool calls,
steer, follow-up, abort, model and thinking changes, compaction, bash, stats, fork and clone;
then every session file tether wrote is opened by pi's ``SessionManager`` and must give the
same context as ``tether session context --json``.

The npm package is installed once per test session (``npm ci`` into the git-ignored
tests/.node/node_modules, skipped while the lock file is unchanged; a file lock lets parallel
workers share it; ``--prefer-offline``: npm's cache serves what the lock file pins, ~10 s
less). Without node or npm these tests skip, and fail under ``CI=true`` (tests/needs.py).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests import needs
from tests.cli_in_process import run_in_process
from tests.servers.base import Reply, ToolCall, Usage
from tests.servers.openai_server import OpenAIServer

NODE_DIR = Path(__file__).parent / ".node"


@pytest.fixture(scope="session")
def pi_npm() -> Path:
    """tests/.node with pi's npm package installed (``npm ci`` once per lock file)."""
    needs.node()
    lock = NODE_DIR / "package-lock.json"
    digest = hashlib.sha256(lock.read_bytes()).hexdigest()
    stamp = NODE_DIR / "node_modules" / ".tether-lock-sha256"
    with open(NODE_DIR / ".install.lock", "w") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        if not (stamp.exists() and stamp.read_text() == digest):
            subprocess.run(
                ["npm", "ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"],
                cwd=NODE_DIR,
                check=True,
                timeout=600,
            )
            stamp.write_text(digest)
    return NODE_DIR


def _models(server: OpenAIServer) -> dict[str, Any]:
    entry = {"baseUrl": server.base_url, "api": server.api}
    entry["models"] = [
        server.model_entry("test-model"),
        server.model_entry("test-reasoner", reasoning=True),
    ]
    return {"providers": {"test": entry}}


def _script(server: OpenAIServer) -> None:
    server.push(
        Reply(tool_calls=[ToolCall("bash", {"command": "echo tool-ran"}, id="call_1")]),
        Reply(text="listed the files"),
        Reply(tool_calls=[ToolCall("bash", {"command": "sleep 1; echo slept"}, id="call_2")]),
        Reply(text="steered: ok"),
        Reply(text="first answer, streamed slowly", chunk_size=2, chunk_delay=0.1),
        Reply(text="second answer"),
        Reply(text="x" * 400, chunk_size=4, chunk_delay=0.05),
        Reply(text="bash printed from-bash", usage=Usage(input=40, output=7, cache_read=3)),
        Reply(text="fork answer"),
    )


def _drive(pi_npm: Path, tmp_path: Path, server: OpenAIServer) -> dict[str, Any]:
    home, cwd = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    cwd.mkdir()
    (home / "models.json").write_text(json.dumps(_models(server)))
    settings = {"compaction": {"summarizer": "offline", "keepRecentTokens": 40}}
    (home / "settings.json").write_text(json.dumps(settings))
    env = {
        **os.environ,
        "TETHER_HOME": str(home),
        "TETHER_TEST_PYTHON": sys.executable,
        "TETHER_TEST_CWD": str(cwd),
        "TETHER_LOAD_PLUGINS": "",  # the built-ins only
    }
    done = subprocess.run(
        ["node", str(pi_npm / "rpc_drive.mjs")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert "error" not in report, (report["error"][:300], " ".join(report["lastEvents"]))
    return report


def _types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def _final(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e["message"] for e in events if e["type"] == "message_end"]


def _pi_contexts(pi_npm: Path, files: list[str]) -> list[dict[str, Any]]:
    """pi's context of each file, in one ``node`` process (loading pi's package is most of
    its cost)."""
    done = subprocess.run(
        ["node", str(pi_npm / "pi_context.mjs"), *files], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    contexts = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(contexts) == len(files)
    return contexts


def _tether_context(file: str) -> dict[str, Any]:
    """``tether session context FILE --json`` in this process (the RPC runs above are the real
    ``tether`` processes)."""
    done = run_in_process("session", "context", file, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_pi_rpc_client_drives_tether(pi_npm: Path, tmp_path: Path) -> None:
    with OpenAIServer() as server:
        _script(server)
        report = _drive(pi_npm, tmp_path, server)
        bodies = server.bodies
    runs, data = report["runs"], report["data"]

    # a tool call: pi's events, in pi's order, with pi's field names
    tools = runs["tools"]
    assert _types(tools)[:4] == ["agent_start", "turn_start", "message_start", "message_end"]
    start = next(e for e in tools if e["type"] == "tool_execution_start")
    end = next(e for e in tools if e["type"] == "tool_execution_end")
    assert start["toolName"] == "bash" and start["args"] == {"command": "echo tool-ran"}
    assert end["toolCallId"] == "call_1" and end["isError"] is False
    assert "tool-ran" in end["result"]["content"][0]["text"]
    streamed = [e["assistantMessageEvent"]["type"] for e in tools if e["type"] == "message_update"]
    assert {"toolcall_start", "toolcall_delta", "toolcall_end", "text_delta"} <= set(streamed)
    turn_ends = [e for e in tools if e["type"] == "turn_end"]
    assert [len(e["toolResults"]) for e in turn_ends] == [1, 0]
    assert _final(tools)[-1]["content"][0]["text"] == "listed the files"

    # steer: queued while the tool ran, delivered before the next model call
    steer = runs["steer"]
    queues = [e for e in steer if e["type"] == "queue_update"]
    assert queues[0]["steering"] == ["change of plan"] and queues[-1]["steering"] == []
    roles = [(m["role"], m.get("toolName")) for m in _final(steer)]
    assert roles == [
        ("user", None),
        ("assistant", None),
        ("toolResult", "bash"),
        ("user", None),
        ("assistant", None),
    ]
    assert _final(steer)[3]["content"][0]["text"] == "change of plan"

    # follow-up: delivered after the first answer, in the same run
    texts = [m["content"][0]["text"] for m in _final(runs["follow_up"]) if m["content"]]
    assert texts == [
        "first question",
        "first answer, streamed slowly",
        "second question",
        "second answer",
    ]

    # abort: the streamed answer ends "aborted"
    aborted = _final(runs["abort"])[-1]
    assert aborted["role"] == "assistant" and aborted["stopReason"] == "aborted"

    # models and thinking
    assert [m["id"] for m in data["models"]] == ["test-model", "test-reasoner"]
    assert data["setModel"]["id"] == "test-reasoner" and data["setModel"]["reasoning"] is True
    assert data["cycleThinking"] == {"level": "high"}
    assert data["stateReasoner"]["thinkingLevel"] == "high"
    assert data["cycleModel"]["model"]["id"] == "test-model"
    assert data["cycleModel"]["isScoped"] is False
    assert data["stateAfterCycle"]["thinkingLevel"] == "off"

    # compaction, bash, and the prompt after them
    assert data["compact"]["tokensBefore"] > 0 and data["compact"]["summary"]
    assert data["bash"] == {
        "output": "from-bash\n",
        "exitCode": 0,
        "cancelled": False,
        "truncated": False,
    }
    sent = json.dumps(bodies[7]["messages"])
    assert "Ran `echo from-bash`" in sent and "from-bash" in sent
    assert "compaction" in sent.lower() or "summary" in sent.lower()
    assert _types(runs["after_compact"])[-1] == "agent_end"

    # stats: pi's shape
    stats = data["stats"]
    assert set(stats) >= {
        "sessionFile",
        "sessionId",
        "userMessages",
        "assistantMessages",
        "toolCalls",
        "toolResults",
        "totalMessages",
        "tokens",
        "cost",
        "contextUsage",
    }
    assert stats["tokens"]["input"] >= 40 and stats["tokens"]["cacheRead"] >= 3
    assert stats["contextUsage"]["contextWindow"] == 128000

    # fork and clone: new session files, names, last text
    assert data["fork"] == {"text": "first question", "cancelled": False}
    files = [
        data["stateBeforeFork"]["sessionFile"],
        data["stateForked"]["sessionFile"],
        data["stateCloned"]["sessionFile"],
    ]
    assert len(set(files)) == 3
    assert data["clone"] == {"cancelled": False}
    assert data["stateCloned"]["sessionName"] == "rpc clone"
    assert data["lastText"] == "fork answer"
    assert data["stateEnd"]["steeringMode"] == "all"
    assert data["stateEnd"]["autoCompactionEnabled"] is False

    # every session file tether wrote opens in pi with the same context
    for file, pi in zip(files, _pi_contexts(pi_npm, files), strict=True):
        tether = _tether_context(file)
        for key in ("thinkingLevel", "model", "messages", "llmMessages"):
            assert tether[key] == pi[key], (file, key)
