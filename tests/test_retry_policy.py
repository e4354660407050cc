"""The retry policy is a plugin: the kernel asks ``retry_decision`` and carries out the
answer. An installed plugin can retry what the built-in would not, or give up where it would
retry; a broken answer is reported with the plugin's name and not retried; blocking the
built-in ``retry_policy`` plugin turns retries off. Real subprocesses, the faux provider."""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path
from types import SimpleNamespace

from tests.plugin_fakes import write_distribution
from tests.store_helpers import run_tether
from tether.core.base.settings import load_settings
from tether.core.host.manager import create_plugin_manager
from tether.hookspecs.providers import TransientError

POLICY_PLUGIN = """
from tether.hookspecs import hookimpl
from tether.hookspecs.events import RetryDecision

@hookimpl
def retry_decision(error, attempt, message):
    if {condition}:
        return {answer}
    return None
"""
PERMANENT = {"error": {"kind": "permanent", "message": "bad gateway config", "status": 400}}
TRANSIENT = {"error": {"kind": "transient", "message": "overloaded", "status": 503}}


def _run(
    tmp_path: Path, steps: list, plugin: str | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    home = tmp_path / "home"
    (tmp_path / ".tether").mkdir(exist_ok=True)
    (tmp_path / ".tether" / "settings.json").write_text(json.dumps({"retry": {"baseDelayMs": 1}}))
    home.mkdir(exist_ok=True)
    full: dict[str, str | None] = {
        "TETHER_LOAD_PLUGINS": None,
        "TETHER_DISABLE_PLUGINS": None,
        "TETHER_HOME": str(home),
        "HOME": str(home),
        "TETHER_FAUX_SCRIPT": json.dumps(steps),
        **env,
    }
    if plugin is not None:
        site = Path(tempfile.mkdtemp(dir=tmp_path))
        write_distribution(site, "tether-policy", "0.1", {"policy": "policy"}, {"policy": plugin})
        full["PYTHONPATH"] = str(site)
    return run_tether(
        "run", "--no-session", "--json", "--provider", "faux", "hi", cwd=tmp_path, env=full
    )


def _events(done: subprocess.CompletedProcess[str], kind: str) -> list[dict]:
    records = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return [r for r in records if r.get("type") == kind]


def _answer(done: subprocess.CompletedProcess[str]) -> str:
    ends = [e for e in _events(done, "message_end") if e["message"]["role"] == "assistant"]
    final = ends[-1]["message"]
    return "".join(b.get("text", "") for b in final["content"] if b.get("type") == "text")


def test_the_builtin_policy_retries_a_transient_error(tmp_path: Path) -> None:
    done = _run(tmp_path, [TRANSIENT, "made it"])
    assert done.returncode == 0, done.stderr
    assert [(e["attempt"], e["delayMs"]) for e in _events(done, "auto_retry_start")] == [(1, 1)]
    assert _answer(done) == "made it"


def test_an_installed_plugin_retries_what_the_builtin_would_not(tmp_path: Path) -> None:
    plugin = POLICY_PLUGIN.format(
        condition="getattr(error, 'status', None) == 400 and attempt == 1",
        answer="RetryDecision(True, max_attempts=1, delay_ms=0)",
    )
    done = _run(tmp_path, [PERMANENT, "second try worked"], plugin)
    assert done.returncode == 0, done.stderr
    starts = _events(done, "auto_retry_start")
    assert [(e["attempt"], e["maxAttempts"], e["delayMs"]) for e in starts] == [(1, 1, 0)]
    assert _answer(done) == "second try worked"
    without = _run(tmp_path, [PERMANENT, "second try worked"])  # the built-in: no retry
    assert _events(without, "auto_retry_start") == [] and without.returncode != 0


def test_an_installed_plugin_gives_up_where_the_builtin_would_retry(tmp_path: Path) -> None:
    plugin = POLICY_PLUGIN.format(
        condition="True", answer="RetryDecision(False, reason='no budget left', announce=True)"
    )
    done = _run(tmp_path, [TRANSIENT, "never asked"], plugin)
    assert done.returncode != 0
    assert _events(done, "auto_retry_start") == []
    [end] = _events(done, "auto_retry_end")
    assert end["success"] is False and end["reason"] == "no budget left"


def test_a_wrong_answer_names_the_plugin_and_is_not_retried(tmp_path: Path) -> None:
    plugin = POLICY_PLUGIN.format(condition="True", answer="True")
    done = _run(tmp_path, [TRANSIENT, "never asked"], plugin)
    assert done.returncode != 0
    assert _events(done, "auto_retry_start") == []
    expected = "plugin 'policy' failed in retry_decision: returned bool, expected RetryDecision"
    assert f"tether: warning: {expected}" in done.stderr
    raising = POLICY_PLUGIN.format(condition="True", answer="1 / 0")
    broken = _run(tmp_path, [TRANSIENT, "never asked"], raising)
    assert "plugin 'policy' failed in retry_decision: ZeroDivisionError" in broken.stderr
    assert _events(broken, "auto_retry_start") == [] and "Traceback" not in broken.stderr


def test_blocking_the_builtin_policy_turns_retries_off(tmp_path: Path) -> None:
    done = _run(tmp_path, [TRANSIENT, "never asked"], TETHER_DISABLE_PLUGINS="retry_policy")
    assert done.returncode != 0
    assert _events(done, "auto_retry_start") == []


def test_the_kernel_returns_the_policys_decision(tmp_path: Path) -> None:
    from tether.core.hooks.facade import NO_RETRY_POLICY, Hooks
    from tether.hookspecs.events import RetryDecision

    pm = create_plugin_manager(environ={})
    settings = load_settings(tmp_path, home=tmp_path)
    error = TransientError("slow down", status=429, retry_after=3)
    decision = Hooks(pm).retry_decision(
        error=error, attempt=2, settings=settings, message={"role": "assistant"}
    )
    assert decision == RetryDecision(True, 2, 3, 4000)  # max(2000 × 2, 3 s)
    bare = create_plugin_manager(load_entry_points=False, environ={})
    answer = Hooks(bare).retry_decision(
        error=error, attempt=1, settings=SimpleNamespace(), message={}
    )
    assert answer.reason == NO_RETRY_POLICY
