"""Ctrl-C and the per-call time limit end a hanging hook of a real installed plugin.

``tether run``/``tether chat`` run in a subprocess with a fake distribution on ``PYTHONPATH``;
SIGINT is sent while the plugin's hook sleeps. The session file keeps whole lines only.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.harness_helpers import session_files, write_home
from tests.servers import ToolCall
from tests.store_helpers import run_tether
from tests.test_hook_faults import MODEL, _env, _install, _project

# -- Ctrl-C and the time limit ---------------------------------------------------------------

SLEEPING_CONTEXT = """
import pathlib, time
from tether import hookimpl

@hookimpl
def context(event, session):
    pathlib.Path({marker!r}).write_text("in the hook")
    time.sleep(60)
"""


def _sleeper(tmp_path: Path) -> tuple[Path, Path]:
    marker = tmp_path / "in-hook"
    return _install(tmp_path, SLEEPING_CONTEXT.format(marker=str(marker))), marker


def _wait_for(path: Path, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 30
    while not path.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the hook never ran"
        time.sleep(0.05)


def _popen(args: list[str], cwd: Path, env: dict[str, str | None], **kw) -> subprocess.Popen[str]:
    full = dict(os.environ)
    full.pop("TETHER_DEBUG", None)
    for key, value in env.items():
        if value is None:
            full.pop(key, None)
        else:
            full[key] = value
    return subprocess.Popen(
        [sys.executable, "-m", "tether", *args],
        cwd=cwd,
        env=full,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **kw,
    )


def test_ctrl_c_interrupts_a_hanging_hook_in_run(openai_server, tmp_path):
    home = write_home(tmp_path / "home", openai_server)
    openai_server.text("never asked")
    site, marker = _sleeper(tmp_path)
    proc = _popen(
        ["run", *MODEL, "hello"], _project(tmp_path), _env(site, home), stdin=subprocess.DEVNULL
    )
    _wait_for(marker, proc)
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    assert time.monotonic() - started < 10, "one Ctrl-C must end the hook call"
    assert proc.returncode == 130, err
    assert "interrupted in plugin 'fault' (context hook)" in err and "Traceback" not in err
    assert openai_server.requests == []  # the turn was aborted before the model call
    # a prompt's first context call runs before the prompt is stored: nothing is written
    assert session_files(home) == []


def test_ctrl_c_in_chat_interrupts_the_hook_and_chat_goes_on(openai_server, tmp_path):
    home = write_home(tmp_path / "home", openai_server)
    site, marker = _sleeper(tmp_path)
    proc = _popen(["chat", *MODEL], _project(tmp_path), _env(site, home), stdin=subprocess.PIPE)
    assert proc.stdin is not None
    proc.stdin.write("hello\n")
    proc.stdin.flush()
    _wait_for(marker, proc)
    proc.send_signal(signal.SIGINT)
    time.sleep(1.0)
    assert proc.poll() is None, "Ctrl-C aborts the turn, not the chat"
    out, err = proc.communicate("/quit\n", timeout=20)
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert openai_server.requests == []
    assert "plugin 'fault' failed in context: interrupted; the turn was aborted" in out + err
    assert session_files(home) == []  # aborted before the prompt was stored


def test_a_hook_past_the_time_limit_is_named_and_fails_like_a_raise(openai_server, tmp_path):
    home = write_home(
        tmp_path / "home", openai_server, settings={"plugins": {"hookTimeoutMs": 300}}
    )
    openai_server.text("never asked")
    site, _marker = _sleeper(tmp_path)
    started = time.monotonic()
    done = run_tether("run", *MODEL, "hello", cwd=_project(tmp_path), env=_env(site, home))
    assert time.monotonic() - started < 20
    assert done.returncode == 1, done.stderr
    assert (
        "plugin 'fault' failed in context: no answer within 300 ms (plugins.hookTimeoutMs)"
        in done.stderr
    )
    assert openai_server.requests == []


STALLING_TOOL = """
import pathlib, time
from tether import FunctionTool, ToolResult, hookimpl

def run(tool_call_id, args, ctx):
    pathlib.Path({marker!r}).write_text("in the tool")
    time.sleep(60)  # ignores ctx.signal
    return ToolResult.text("late")

@hookimpl
def register_tools(register):
    register(FunctionTool(name="stall", description="Stall", parameters={{}}, run=run))
"""


def test_a_second_ctrl_c_exits_when_the_first_cannot_end_the_turn(openai_server, tmp_path):
    home = write_home(tmp_path / "home", openai_server)
    openai_server.tool_calls(ToolCall("stall", {}, id="s1"))
    openai_server.text("never asked")
    marker = tmp_path / "in-tool"
    site = _install(tmp_path, STALLING_TOOL.format(marker=str(marker)))
    proc = _popen(
        ["run", *MODEL, "hello"], _project(tmp_path), _env(site, home), stdin=subprocess.DEVNULL
    )
    _wait_for(marker, proc)
    proc.send_signal(signal.SIGINT)
    time.sleep(1.0)
    assert proc.poll() is None, "the tool ignores the abort: the first Ctrl-C waits for it"
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    assert time.monotonic() - started < 10
    assert proc.returncode == 130, err
    assert "^C again: exiting" in err and "Traceback" not in err
    [file] = session_files(home)
    lines = file.read_text(encoding="utf-8").splitlines()
    messages = [json.loads(line).get("message", {}) for line in lines]
    assert messages[-1].get("role") == "assistant"  # the tool call, whole; nothing torn
    assert "stall" in json.dumps(messages[-1])


HANGING_HOOK = """
import pathlib, time
from tether import hookimpl

@hookimpl
def {hook}(event, session):
    pathlib.Path({marker!r}).write_text("in the hook")
    time.sleep(60)
"""


@pytest.mark.parametrize("hook", ["input", "context", "before_tool_call", "agent_event"])
def test_two_ctrl_c_end_a_run_whatever_hook_hangs(openai_server, tmp_path, hook):
    home = write_home(tmp_path / "home", openai_server)
    openai_server.tool_calls(ToolCall("bash", {"command": "echo hi"}, id="c1"))
    openai_server.text("done")
    marker = tmp_path / "in-hook"
    site = _install(tmp_path, HANGING_HOOK.format(hook=hook, marker=str(marker)))
    proc = _popen(
        ["run", *MODEL, "hello"], _project(tmp_path), _env(site, home), stdin=subprocess.DEVNULL
    )
    _wait_for(marker, proc)
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=3)
    except subprocess.TimeoutExpired:  # a later call of the same hook hangs again
        proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    assert time.monotonic() - started < 15
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    for file in session_files(home):  # whole lines only
        assert all(json.loads(line) for line in file.read_text(encoding="utf-8").splitlines())
