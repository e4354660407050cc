"""Hook faults of real installed plugins are named, typed and interruptible.

Each test writes a fake distribution (dist-info + module) onto ``PYTHONPATH`` and runs the
real ``tether`` CLI in a subprocess against the loopback OpenAI-compatible server.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.harness_helpers import REPO, read_entries, session_files, write_home
from tests.plugin_fakes import write_distribution
from tests.servers import ToolCall
from tests.store_helpers import GEN, run_tether

MODEL = ["--model", "loop/test-model"]


def _install(tmp_path: Path, source: str, name: str = "fault") -> Path:
    site = tmp_path / "site"
    write_distribution(
        site, f"tether-{name}", "1.0", {name: f"{name}_plugin"}, {f"{name}_plugin": source}
    )
    return site


def _env(site: Path, home: Path, name: str = "fault") -> dict[str, str | None]:
    return {
        "TETHER_HOME": str(home),
        "TETHER_FSYNC": "0",
        "PYTHONPATH": f"{site}{os.pathsep}{REPO}",
        "TETHER_LOAD_PLUGINS": name,
        "TETHER_DISABLE_PLUGINS": None,
        "TETHER_TRACE_PLUGINS": None,
    }


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    return project


def _tool_results(home: Path) -> list[dict]:
    [file] = session_files(home)
    return [
        e["message"]
        for e in read_entries(file)
        if e["type"] == "message" and e["message"]["role"] == "toolResult"
    ]


# -- before_tool_call / tool_result ----------------------------------------------------------

STR_GUARD = """
from tether import hookimpl

@hookimpl
def before_tool_call(event, session):
    return "no"
"""

RAISING_GUARD = """
from tether import hookimpl

@hookimpl
def before_tool_call(event, session):
    raise ValueError("guard is broken")
"""


def _bash_touch(
    openai_server, tmp_path: Path, source: str
) -> tuple[subprocess.CompletedProcess[str], Path, Path]:
    home = write_home(tmp_path / "home", openai_server)
    project = _project(tmp_path)
    openai_server.tool_calls(ToolCall("bash", {"command": "touch ran.txt"}, id="c1"))
    openai_server.text("done")
    site = _install(tmp_path, source)
    done = run_tether("run", *MODEL, "touch it", cwd=project, env=_env(site, home))
    return done, home, project


def test_a_wrong_answer_of_before_tool_call_blocks_and_names_the_plugin(openai_server, tmp_path):
    done, home, project = _bash_touch(openai_server, tmp_path, STR_GUARD)
    assert done.returncode == 0, done.stderr
    assert not (project / "ran.txt").exists(), "a str answer must never count as allow"
    warning = "tether: warning: plugin 'fault' failed in before_tool_call: returned str"
    assert warning in done.stderr and "the bash call was blocked" in done.stderr
    [result] = _tool_results(home)
    assert result["isError"] and "plugin 'fault' failed in before_tool_call" in json.dumps(result)


def test_a_raise_in_before_tool_call_is_shown_and_blocks(openai_server, tmp_path):
    done, home, project = _bash_touch(openai_server, tmp_path, RAISING_GUARD)
    assert done.returncode == 0, done.stderr
    assert not (project / "ran.txt").exists()
    line = "plugin 'fault' failed in before_tool_call: ValueError: guard is broken"
    assert f"tether: warning: {line}; the bash call was blocked" in done.stderr
    [result] = _tool_results(home)
    assert result["isError"] and line in json.dumps(result)


RAISING_RESULT = """
from tether import hookimpl

@hookimpl
def tool_result(event, session):
    raise ValueError("patcher is broken")
"""


def test_a_raise_in_tool_result_is_shown_and_skipped(openai_server, tmp_path):
    done, home, project = _bash_touch(openai_server, tmp_path, RAISING_RESULT)
    assert done.returncode == 0, done.stderr
    assert (project / "ran.txt").exists()
    line = "plugin 'fault' failed in tool_result: ValueError: patcher is broken"
    assert f"tether: warning: {line}; its change to the bash result was skipped" in done.stderr
    [result] = _tool_results(home)
    assert not result["isError"]  # the tool's own result stands


# -- wrong answers of before_agent_start, prepare_compaction, summarize, count_tokens ---------

WRONG_START = """
from tether import hookimpl

@hookimpl
def before_agent_start(event, session):
    return [42]
"""


def test_a_wrong_answer_of_before_agent_start_names_the_plugin(openai_server, tmp_path):
    home = write_home(tmp_path / "home", openai_server)
    site = _install(tmp_path, WRONG_START)
    done = run_tether("run", *MODEL, "hi", cwd=_project(tmp_path), env=_env(site, home))
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        "tether: error: before_agent_start: plugin 'fault' failed in before_agent_start: "
        "returned a int as a message, expected a dict or a str"
    )
    assert "Traceback" not in done.stderr


def _compact(
    tmp_path: Path, source: str, *extra: str
) -> tuple[subprocess.CompletedProcess[str], bytes, Path]:
    file = tmp_path / "s.jsonl"
    shutil.copyfile(GEN / "g03-linear-tools.jsonl", file)
    before = file.read_bytes()
    site = _install(tmp_path, source)
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    done = run_tether(
        "session",
        "compact",
        str(file),
        "--keep",
        "3000",
        "--summarizer",
        "offline",
        *extra,
        cwd=tmp_path,
        env=_env(site, home),
    )
    return done, before, file


WRONG_STRATEGY = """
from tether import hookimpl

@hookimpl(tryfirst=True)
def prepare_compaction(path, settings, session):
    return "cut here"
"""

WRONG_SUMMARY = """
from tether import hookimpl

@hookimpl(tryfirst=True)
def summarize(request):
    return "a summary as a plain string"
"""

RAISING_COUNTER = """
from tether import hookimpl

@hookimpl(tryfirst=True)
def count_tokens(messages, model):
    raise ValueError("tokenizer file missing")
"""


def test_wrong_answers_of_memory_hooks_name_the_plugin(tmp_path):
    cases = [
        (WRONG_STRATEGY, "plugin 'fault' failed in prepare_compaction: returned str"),
        (WRONG_SUMMARY, "plugin 'fault' failed in summarize: returned str"),
        (
            RAISING_COUNTER,
            "plugin 'fault' failed in count_tokens: ValueError: tokenizer file missing",
        ),
    ]
    for index, (source, expected) in enumerate(cases):
        case = tmp_path / str(index)
        case.mkdir()
        done, before, file = _compact(case, source)
        assert done.returncode == 1, done.stderr
        line = done.stderr.strip().splitlines()[-1]
        assert "Traceback" not in done.stderr
        assert line.startswith("tether: error: ") and expected in line, line
        assert "compaction_strategy" not in line
        assert file.read_bytes() == before  # session unchanged


# -- the act side where no agent runs --------------------------------------------------------

ACTING_ON_COMPACT = """
from tether import hookimpl

@hookimpl
def session_before_compact(event, session):
    session.append_entry("my-state", {"seen": True})
"""


def test_acting_where_no_agent_runs_is_one_clear_error(tmp_path):
    done, before, file = _compact(tmp_path, ACTING_ON_COMPACT)
    assert done.returncode == 1
    line = done.stderr.strip().splitlines()[-1]
    assert "Traceback" not in done.stderr
    assert "plugin 'fault' failed in session_before_compact" in line
    assert "session.append_entry() needs a running agent" in line
    assert file.read_bytes() == before


SETTINGS_READER = """
from tether import hookimpl

@hookimpl
def context(event, session):
    level = session.plugin_settings("fault").get("level")
    event.messages.append({"role": "user", "content": f"level {level}", "timestamp": 1})
"""


def test_a_plugin_reads_its_own_settings_by_name(tmp_path):
    file = tmp_path / "s.jsonl"
    shutil.copyfile(GEN / "g03-linear-tools.jsonl", file)
    site = _install(tmp_path, SETTINGS_READER)
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text(json.dumps({"plugins": {"fault": {"level": 7}}}))
    done = run_tether("session", "context", str(file), "--json", cwd=tmp_path, env=_env(site, home))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["messages"][-1]["content"] == "level 7"


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
    assert "interrupted" in err and "Traceback" not in err
    assert openai_server.requests == []  # the turn was aborted before the model call
    [file] = session_files(home)
    entries = read_entries(file)
    assert entries[0]["type"] == "session"
    messages = [e["message"] for e in entries if e["type"] == "message"]
    assert messages[0]["role"] == "user" and "hello" in json.dumps(messages[0])
    assert messages[-1]["stopReason"] == "aborted"
    assert "plugin 'fault' failed in context: interrupted" in messages[-1]["errorMessage"]


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
    [file] = session_files(home)
    lines = file.read_text(encoding="utf-8").splitlines()
    assert all(json.loads(line) for line in lines)  # whole lines only
    assert any('"hello"' in line for line in lines)
    last = json.loads(lines[-1])["message"]
    assert last["stopReason"] == "aborted"
    assert "plugin 'fault' failed in context: interrupted" in last["errorMessage"]


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
