"""Whole turns on a real PostgreSQL server that restarts or stops while a tool runs (between
the assistant's tool call and its result): in ``run``, ``chat`` and RPC mode the store
reconnects and the turn completes, each entry stored once; a server that stays away ends the
run with one line saying what is stored and what is not, and ``show --validate`` then warns
of the unanswered tool call. The shared cluster is restarted in place (tests in one process
run one at a time; each xdist worker has its own cluster) and always left running."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.rpc_helpers import RpcProcess
from tests.servers import OpenAIServer
from tests.servers.base import Reply, ToolCall
from tests.store_backends import Backend, make_backend
from tests.store_helpers import CORPUS, ROOT

SAMPLE = next(p for p in CORPUS if p.stem == "g09-bash-exec")


class ToolGate:
    """A bash command that says it started, then waits for the test's go (a file)."""

    def __init__(self, folder: Path) -> None:
        self.started, self.go = folder / "tool-started", folder / "tool-go"

    @property
    def command(self) -> str:
        return f"touch {self.started}; while [ ! -e {self.go} ]; do sleep 0.02; done; echo tool-ran"

    def meanwhile(self, action: Callable[[], None], process: Any) -> None:
        deadline = time.monotonic() + 60
        while not self.started.exists():
            assert process.poll() is None, "the process ended before the tool ran"
            assert time.monotonic() < deadline, "the tool never started"
            time.sleep(0.02)
        action()
        self.go.touch()


@pytest.fixture
def pg(request: pytest.FixtureRequest, tmp_path: Path, pg_cluster: Any) -> Any:
    backend = make_backend(request, "postgresql", tmp_path / "store")
    yield backend
    pg_cluster.ensure_running()


def _script(server: OpenAIServer, gate: ToolGate, home: Path) -> None:
    server.write_models_json(home)
    server.tool_calls(ToolCall("bash", {"command": gate.command}, id="call_gate"))
    server.text("the final answer")


def _env(pg: Backend) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "TETHER_DEBUG"}
    env.update({k: v for k, v in pg.env.items() if v is not None})
    return env


def _turn(pg: Backend, ref: str) -> list[dict[str, Any]]:
    """The messages of the session's branch after the imported sample, in order."""
    session = pg.open(ref, readonly=True)
    before = len(SAMPLE.read_text().splitlines()) - 1
    entries = session.get_branch()
    assert [e["id"] for e in session.entries()][:before] == [e["id"] for e in entries][:before]
    ids = [e["id"] for e in session.entries()]
    assert len(ids) == len(set(ids))  # nothing written twice
    return [e["message"] for e in entries[before:] if e.get("type") == "message"]


def _roles(messages: list[dict[str, Any]]) -> list[str]:
    return [m["role"] for m in messages]


def _start(mode: str, pg: Backend, ref: str) -> Any:
    if mode == "rpc":
        home = Path(pg.env["TETHER_HOME"] or "")
        store = {"TETHER_STORE": str(pg.uri)}
        rpc = RpcProcess(home, pg.folder, "--provider", "test", "--session", ref, extra_env=store)
        rpc.send({"type": "prompt", "message": "question", "id": "p1"})
        return rpc
    args = ["run", "--session", ref, "--provider", "test", "question"]
    script = pg.folder / "typed"
    script.write_text("question\n/quit\n")  # what a user types in chat
    if mode == "chat":
        args = ["chat", "--session", ref, "--provider", "test"]
    with script.open() as stdin:
        return subprocess.Popen(
            [sys.executable, "-m", "tether", *args],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=_env(pg),
        )


def _finish(mode: str, process: Any) -> tuple[int, str, str]:
    if mode == "rpc":
        process.until(lambda r: r.get("type") == "agent_end", timeout=90)
        out = b"".join(process.raw).decode()
        code, err = process.close()
        return code, out, err
    out, err = process.communicate(timeout=120)
    return process.returncode, out, err


@pytest.mark.parametrize("mode", ["run", "chat", "rpc"])
def test_a_restart_while_a_tool_runs_does_not_lose_the_rest_of_the_turn(
    pg: Backend, pg_cluster: Any, openai_server: OpenAIServer, mode: str
) -> None:
    ref = pg.add(SAMPLE)
    gate = ToolGate(pg.folder)
    _script(openai_server, gate, pg.folder / "home")
    process = _start(mode, pg, ref)
    gate.meanwhile(pg_cluster.restart, process.proc if mode == "rpc" else process)
    code, out, err = _finish(mode, process)
    assert code == 0, err
    assert "the final answer" in out and "error" not in err.lower(), err
    messages = _turn(pg, ref)
    assert _roles(messages) == ["user", "assistant", "toolResult", "assistant"]
    assert "tool-ran" in json.dumps(messages[2]["content"])
    assert messages[3]["content"][0]["text"] == "the final answer"


def test_a_server_that_stays_away_ends_the_run_saying_what_is_stored(
    pg: Backend,
    pg_cluster: Any,
    openai_server: OpenAIServer,
    capsys: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tether.core.cli.app import main

    ref = pg.add(SAMPLE)
    gate = ToolGate(pg.folder)
    _script(openai_server, gate, pg.folder / "home")
    settings = {"session": {"reconnectSeconds": 1}}
    (pg.folder / "home" / "settings.json").write_text(json.dumps(settings))
    process = _start("run", pg, ref)
    started = time.monotonic()
    gate.meanwhile(pg_cluster.server_stop, process)
    code, out, err = _finish("run", process)
    assert code == 1 and out == ""  # the model was not asked again: there is no reply
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith(f"tether: error: {pg.uri.split(':s3cret')[0]}"), lines[0]
    assert "s3cret" not in err  # the password is not shown
    assert "the database did not answer for 1 s" in lines[0] and time.monotonic() - started < 30
    pg_cluster.ensure_running()
    messages = _turn(pg, ref)
    assert _roles(messages) == ["user", "assistant"]  # the call; its result is not stored
    session = pg.open(ref, readonly=True)
    call_entry = session.get_branch()[-1]["id"]
    assert f"stored: {len(session.table)} entries, the last {call_entry} (assistant)" in lines[0]
    assert lines[0].endswith(" (toolResult)") and "; not stored: " in lines[0]

    monkeypatch.setenv("TETHER_STORE", str(pg.uri))
    monkeypatch.setenv("TETHER_HOME", str(pg.folder / "home"))
    assert main(["session", "show", "--validate", ref]) == 0
    shown = capsys.readouterr().out
    assert "problems:  0; warnings: 1" in shown
    assert f"entry {call_entry}: message.content[0]: tool call call_gate (bash) has no result" in (
        shown
    )
    assert "the branch ends here" in shown


def test_a_server_that_stays_away_still_prints_the_reply_it_could_not_store(
    pg: Backend,
    pg_cluster: Any,
    openai_server: OpenAIServer,
    capsys: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # In-process: the server stops while the model answers (after the tool result is stored).
    from tether.core.cli.app import main

    home = pg.folder / "home"
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.json").write_text(json.dumps({"session": {"reconnectSeconds": 0.5}}))
    monkeypatch.setenv("TETHER_HOME", str(home))
    monkeypatch.setenv("TETHER_STORE", str(pg.uri))
    ref = pg.add(SAMPLE)
    openai_server.write_models_json(home)
    openai_server.tool_calls(ToolCall("bash", {"command": "echo tool-ran"}, id="call_1"))

    def stop_then_answer(body: Any) -> Reply:
        pg_cluster.server_stop()
        return Reply(text="the unsaved answer")

    openai_server.responder = stop_then_answer
    code = main(["run", "--session", ref, "--provider", "test", "question"])
    out, err = capsys.readouterr()
    assert code == 1 and out == "the unsaved answer\n"
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "the database did not answer for" in lines[0], err
    pg_cluster.ensure_running()
    messages = _turn(pg, ref)
    assert _roles(messages) == ["user", "assistant", "toolResult"]
    session = pg.open(ref, readonly=True)
    result_entry = session.get_branch()[-1]["id"]
    stored = f"; stored: {len(session.table)} entries, the last {result_entry} (toolResult); "
    assert f"{stored}not stored: " in lines[0]
    assert lines[0].endswith(" (assistant)")
