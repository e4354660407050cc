"""The default time limit of ``input``, ``context``, ``agent_event`` and ``session_start``/
``shutdown`` hooks (``plugins.hookTimeoutMs``): a hanging plugin costs one warning, not a hung
agent, and SIGTERM ends a run whose ``agent_event`` hook hangs at once.

In-process harnesses with the ``faux`` model, and ``tether run`` subprocesses with a real
installed plugin (a fake distribution on ``PYTHONPATH``).
"""

from __future__ import annotations

import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.harness_helpers import open_harness, plugin_manager, use_home, write_home
from tests.store_helpers import run_tether
from tests.test_harness import FAUX
from tests.test_hook_faults import _env, _install, _project
from tests.test_hook_interrupts import _popen, _wait_for
from tether.core.base.errors import HookError, UsageError
from tether.core.base.settings import load_settings
from tether.core.harness import setup
from tether.core.harness.setup import LIMITED_BY_DEFAULT, hook_time_limit
from tether.hookspecs import hookimpl


def _settings(tmp_path: Path, plugins: dict[str, Any] | None) -> Any:
    home = write_home(tmp_path / "home", settings=None if plugins is None else {"plugins": plugins})
    return load_settings(tmp_path, home=home)


def test_the_setting_limits_every_hook_or_none_and_unset_limits_the_quick_ones(tmp_path):
    assert hook_time_limit(_settings(tmp_path / "a", None)) == {
        "timeout_ms": 30_000,
        "limited": LIMITED_BY_DEFAULT,
    }
    assert LIMITED_BY_DEFAULT == {
        "input",
        "context",
        "agent_event",
        "session_start",
        "session_shutdown",
    }
    assert hook_time_limit(_settings(tmp_path / "b", {"hookTimeoutMs": 250})) == {
        "timeout_ms": 250,
        "limited": None,
    }
    assert hook_time_limit(_settings(tmp_path / "c", {"hookTimeoutMs": 0})) == {
        "timeout_ms": None,
        "limited": None,
    }
    with pytest.raises(UsageError) as caught:
        hook_time_limit(_settings(tmp_path / "d", {"hookTimeoutMs": "5s"}))
    assert str(caught.value) == (
        "settings: plugins.hookTimeoutMs: expected milliseconds (a number, 0 for no limit), "
        "got '5s'"
    )


class Hanger:
    """Hooks that block until :attr:`release` is set (then the helper threads end)."""

    def __init__(self, *hooks: str) -> None:
        self.hooks = set(hooks)
        self.release = threading.Event()
        self.calls: list[str] = []

    def _hang(self, name: str) -> None:
        self.calls.append(name)
        if name in self.hooks:
            self.release.wait(60)

    @hookimpl
    def session_start(self, session: Any, reason: str) -> None:
        self._hang("session_start")

    @hookimpl
    def agent_event(self, event: Any, session: Any) -> None:
        self._hang("agent_event")

    @hookimpl
    def context(self, event: Any, session: Any) -> None:
        self._hang("context")

    @hookimpl
    def before_tool_call(self, event: Any, session: Any) -> None:
        self._hang("before_tool_call")


def _bounded(work: Any, seconds: float = 20) -> Any:
    """``work()`` in a thread; fails (instead of hanging the suite) if it takes too long."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = work()
        except BaseException as exc:  # re-raised below
            box["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s: no time limit"
    if "error" in box:
        raise box["error"]
    return box.get("value")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(setup, "DEFAULT_HOOK_TIMEOUT_MS", 200)  # the default, made short
    return use_home(write_home(tmp_path / "home"), monkeypatch)


def test_hanging_observers_get_the_default_limit_and_one_warning_each(home, tmp_path):
    hanger = Hanger("session_start", "agent_event")
    pm = plugin_manager(("hanger", hanger))
    try:
        harness = _bounded(lambda: open_harness(pm, tmp_path, home, FAUX))
        started = time.monotonic()
        result = _bounded(lambda: harness.prompt("hello"))
        assert time.monotonic() - started < 5  # one wait of 200 ms, then it is skipped
        assert result.text
        harness.close()
    finally:
        hanger.release.set()
    assert harness.warnings == [
        "plugin 'hanger' failed in session_start: no answer within 200 ms (plugins.hookTimeoutMs)",
        "plugin 'hanger' failed in agent_event: no answer within 200 ms (plugins.hookTimeoutMs)",
    ]
    assert hanger.calls.count("agent_event") == 1  # not called again while it hangs
    assert [e["type"] for e in harness.session.get_branch()][-2:] == ["message", "message"]


def test_a_plugin_whose_late_call_returned_is_called_again(home, tmp_path):
    hanger = Hanger("agent_event")
    pm = plugin_manager(("hanger", hanger))
    harness = open_harness(pm, tmp_path, home, FAUX)
    try:
        _bounded(lambda: harness.prompt("hello"))
    finally:
        hanger.release.set()
    for thread in harness.hooks.runner.abandoned.values():
        thread.join(10)
    hanger.hooks.clear()
    _bounded(lambda: harness.prompt("again"))
    harness.close()
    assert hanger.calls.count("agent_event") > 2  # every event of the second run
    assert len(harness.warnings) == 1


def _raised(call):
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - the test inspects it
        return exc
    raise AssertionError("no exception")


def test_a_hanging_context_hook_stops_the_run_naming_the_plugin(home, tmp_path):
    hanger = Hanger("context")
    pm = plugin_manager(("hanger", hanger))
    try:
        harness = _bounded(lambda: open_harness(pm, tmp_path, home, FAUX))
        # a prompt's first context call runs before the prompt is stored: the prompt raises
        first = _bounded(lambda: _raised(lambda: harness.prompt("hello")))
        second = _bounded(lambda: _raised(lambda: harness.prompt("again")))
        stored = [e["type"] for e in harness.session.entries()]
        harness.close()
    finally:
        hanger.release.set()
    assert isinstance(first, HookError)
    assert str(first) == (
        "plugin 'hanger' failed in context: no answer within 200 ms (plugins.hookTimeoutMs)"
    )
    assert str(second) == "plugin 'hanger' failed in context: an earlier call has not returned"
    assert "message" not in stored  # neither prompt was stored
    assert hanger.calls.count("context") == 1


def test_hooks_outside_the_default_set_wait_for_the_plugin(home, tmp_path):
    # a guard may ask a person: before_tool_call has no limit unless the setting sets one
    hanger = Hanger("before_tool_call")
    pm = plugin_manager(("hanger", hanger))
    harness = open_harness(pm, tmp_path, home, FAUX)
    assert harness.hooks.runner.limit_ms("before_tool_call") is None
    assert harness.hooks.runner.limit_ms("agent_event") == 200
    harness.close()


HANGING_OBSERVER = """
import pathlib, time
from tether import hookimpl

@hookimpl
def agent_event(event, session):
    pathlib.Path({marker!r}).write_text("in the hook")
    time.sleep(600)

@hookimpl
def session_start(session, reason):
    if {start!r}:
        time.sleep(600)
"""


def test_sigterm_ends_a_run_whose_agent_event_hook_hangs_at_once(tmp_path):
    home = write_home(tmp_path / "home")
    marker = tmp_path / "in-hook"
    site = _install(tmp_path, HANGING_OBSERVER.format(marker=str(marker), start=False))
    args = ["run", "--provider", "faux", "--no-session", "hello"]
    proc = _popen(args, _project(tmp_path), _env(site, home), stdin=subprocess.DEVNULL)
    _wait_for(marker, proc)
    started = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    _out, err = proc.communicate(timeout=30)
    assert time.monotonic() - started < 4, err  # was 10 s: each later event waited again
    assert proc.returncode == 143, err
    warnings = [line for line in err.splitlines() if "warning" in line]
    assert warnings == [
        "tether: warning: plugin 'fault' failed in agent_event: interrupted; the turn was aborted"
    ]


def test_a_run_with_hanging_observers_completes_with_one_warning_each(tmp_path):
    home = write_home(tmp_path / "home", settings={"plugins": {"hookTimeoutMs": 300}})
    site = _install(tmp_path, HANGING_OBSERVER.format(marker=str(tmp_path / "m"), start=True))
    started = time.monotonic()
    done = run_tether(
        "run", "--provider", "faux", "--no-session", "hello",
        cwd=_project(tmp_path), env=_env(site, home),
    )  # fmt: skip
    assert time.monotonic() - started < 15
    assert done.returncode == 0, done.stderr
    assert "hello" in done.stdout
    assert [line for line in done.stderr.splitlines() if "warning" in line] == [
        "tether: warning: plugin 'fault' failed in session_start: no answer within 300 ms "
        "(plugins.hookTimeoutMs)",
        "tether: warning: plugin 'fault' failed in agent_event: no answer within 300 ms "
        "(plugins.hookTimeoutMs)",
    ]
