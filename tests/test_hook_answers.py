"""Wrong answers and raises of hooks on the run path: one error line, nothing written.

Each test installs a fake distribution (dist-info + module) on ``PYTHONPATH`` and runs the
real ``tether run --provider faux --session F`` in a subprocess.
"""

from __future__ import annotations

import os
import shutil
import types
from pathlib import Path

import pytest

from tests.cli_in_process import run_in_process
from tests.harness_helpers import REPO, plugin_manager
from tests.plugin_fakes import write_distribution
from tests.store_helpers import GEN, run_tether


def _env(tmp_path: Path, source: str | None) -> dict[str, str | None]:
    site = tmp_path / "site"
    if source is not None and not site.exists():
        write_distribution(site, "tether-bad", "1.0", {"bad": "bad_plugin"}, {"bad_plugin": source})
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return {
        "TETHER_HOME": str(home),
        "TETHER_FSYNC": "0",
        "PYTHONPATH": f"{site}{os.pathsep}{REPO}",
        "TETHER_LOAD_PLUGINS": "bad" if source is not None else None,
        "TETHER_DISABLE_PLUGINS": None,
        "TETHER_TRACE_PLUGINS": None,
    }


@pytest.fixture(scope="module")
def switched(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of a pi session file, switched to the faux model by one run without the plugin
    (so a later faux run has no model change of its own to write); made once, copied by each
    test (the run writes nothing else)."""
    root = tmp_path_factory.mktemp("switched")
    file = root / "s.jsonl"
    shutil.copyfile(GEN / "g02-linear-text.jsonl", file)
    project = root / "project"
    project.mkdir()
    done = run_tether(
        "run", "--provider", "faux", "--session", str(file), "one",
        cwd=project, env=_env(root, None),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return file


def _run_bad(
    tmp_path: Path, switched: Path, source: str, *, process: bool = True
) -> tuple[str, bytes, bytes]:
    """``tether run`` with the plugin ``bad`` of ``source``: installed as a distribution in a
    real process, or registered on the plugin manager of an in-process run."""
    file = tmp_path / "s.jsonl"
    shutil.copyfile(switched, file)
    (tmp_path / "project").mkdir()
    before = file.read_bytes()
    args = ("run", "--provider", "faux", "--session", str(file), "two")
    if process:
        done = run_tether(*args, cwd=tmp_path / "project", env=_env(tmp_path, source))
    else:
        module = types.ModuleType("bad_plugin")
        exec(compile(source, "bad_plugin.py", "exec"), module.__dict__)  # noqa: S102
        pm = plugin_manager(("bad", module))
        home = tmp_path / "home"
        done = run_in_process(*args, home=home, cwd=tmp_path / "project", pm=pm)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    return done.stderr, before, file.read_bytes()


START = """
from tether import hookimpl

@hookimpl
def before_agent_start(event, session):
    return {answer}
"""

WRONG_STARTS = {
    "content-int": ('[{"customType": "x", "content": 5}]', "content=5"),
    "empty-dict": ("[{}]", "customType=None"),
    "bare-str": ('"hello"', "returned str, expected a list of custom messages or None"),
    "bare-dict": ('{"customType": "x", "content": "y"}', "returned dict, expected a list"),
    "str-in-list": ('["hello"]', "returned str as a message"),
    "bad-block": ('[{"customType": "x", "content": [{"type": "text"}]}]', "content block"),
    "display-str": ('[{"customType": "x", "content": "y", "display": "no"}]', "display='no'"),
}


@pytest.mark.parametrize("case", sorted(WRONG_STARTS))
def test_a_wrong_before_agent_start_answer_is_one_error_and_writes_nothing(
    tmp_path, switched, case
):
    answer, said = WRONG_STARTS[case]
    # one case with the plugin installed, in a real process; the others (the same check) in
    # this one
    process = case == "bare-str"
    source = START.format(answer=answer)
    stderr, before, after = _run_bad(tmp_path, switched, source, process=process)
    assert after == before, "a wrong answer must not be written to the session"
    [line] = stderr.strip().splitlines()
    assert line.startswith("tether: error: ")
    assert "plugin 'bad' failed in before_agent_start: " in line and said in line


RAISING_CONTEXT = """
from tether import hookimpl

@hookimpl
def context(event, session):
    raise KeyError("ctx")
"""


def test_a_raise_in_context_is_the_plugins_error_not_the_models(tmp_path, switched):
    stderr, before, after = _run_bad(tmp_path, switched, RAISING_CONTEXT)
    assert stderr.strip().splitlines()[-1] == (
        "tether: error: plugin 'bad' failed in context: KeyError: 'ctx'"
    )
    assert "model call failed" not in stderr


def test_chat_says_a_raise_in_context_as_the_plugins_error(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    done = run_tether(
        "chat", "--provider", "faux", "--no-session",
        cwd=project, env=_env(tmp_path, RAISING_CONTEXT), stdin_text="hi\n/quit\n",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    output = done.stdout + done.stderr
    assert "error: plugin 'bad' failed in context: KeyError: 'ctx'" in output
    assert "model call failed" not in output and "Traceback" not in output
