"""Hook faults of real installed plugins are named, typed and interruptible.

Each test writes a fake distribution (dist-info + module) onto ``PYTHONPATH`` and runs the
real ``tether`` CLI in a subprocess against the loopback OpenAI-compatible server.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

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
        "returned int as a message; expected {'customType': str, 'content': str, ...}"
    )
    assert "Traceback" not in done.stderr


def _compact(
    tmp_path: Path, source: str, *extra: str, settings: dict | None = None
) -> tuple[subprocess.CompletedProcess[str], bytes, Path]:
    file = tmp_path / "s.jsonl"
    shutil.copyfile(GEN / "g03-linear-tools.jsonl", file)
    before = file.read_bytes()
    site = _install(tmp_path, source)
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    if settings is not None:
        (home / "settings.json").write_text(json.dumps(settings))
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

@hookimpl
def register_compaction_strategies(register):
    register("fault", lambda request: "cut here")
"""

WRONG_SUMMARY = """
from tether import hookimpl

@hookimpl
def register_summarizers(register):
    register("fault", lambda request: "a summary as a plain string")
"""

RAISING_COUNTER = """
from tether import hookimpl

def count(messages, model):
    raise ValueError("tokenizer file missing")

@hookimpl
def register_token_counters(register):
    register("fault", count)
"""


@pytest.mark.parametrize(
    ("source", "flags", "expected"),
    [
        (WRONG_STRATEGY, ("--strategy", "fault"), "plugin 'fault': strategy 'fault' returned str"),
        (
            WRONG_SUMMARY,
            ("--summarizer", "fault"),
            "plugin 'fault': summarizer 'fault' returned str",
        ),
        (
            RAISING_COUNTER,
            ({"tokens": {"counter": "fault"}},),
            "plugin 'fault' failed in counter 'fault': ValueError: tokenizer file",
        ),
    ],
    ids=["strategy", "summarizer", "counter"],
)
def test_wrong_answers_of_memory_plugins_name_the_plugin(tmp_path, source, flags, expected):
    """The plugin chosen by flag or setting answered wrongly: it is named, never the kernel."""
    settings = flags[0] if flags and isinstance(flags[0], dict) else None
    args = () if settings is not None else flags
    done, before, file = _compact(tmp_path, source, *args, settings=settings)
    assert done.returncode == 1, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert "Traceback" not in done.stderr
    assert line.startswith("tether: error: ") and expected in line, line
    assert "compaction_strategy" not in line  # blamed on the plugin that failed
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


SENDING_ON_COMPACT = """
from tether import hookimpl

@hookimpl
def session_compact(event, session):
    session.send_message({"customType": "note", "content": "compacted"})
"""


def test_acting_after_compact_is_a_warning_that_does_not_say_read_only(tmp_path):
    done, before, file = _compact(tmp_path, SENDING_ON_COMPACT)
    assert done.returncode == 0, done.stderr  # a notify hook never stops the compaction
    assert "compacted into entry" in done.stdout
    [warning] = [ln for ln in done.stderr.splitlines() if ln.startswith("tether: warning:")]
    assert "plugin 'fault' failed in session_compact" in warning
    assert "session.send_message() needs a running agent" in warning
    assert "only reads" not in warning  # compact writes the session: never say it only reads


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
