"""``session estimate`` and ``session prepare`` use the window of the session's model
(models.json, providers' defaults) and the ``compaction`` settings, exactly as ``session
compact`` and a run do; flags still override both."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli_in_process import run_in_process
from tests.harness_helpers import run_tether
from tests.tree_fixture import assistant, text, user
from tether.core.session.session import Session


def _home(tmp_path: Path, settings: dict[str, Any] | None = None) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    small = {"id": "tiny", "contextWindow": 32000, "maxTokens": 4096}
    provider = {"baseUrl": "http://127.0.0.1:9", "api": "openai-completions", "models": [small]}
    (home / "models.json").write_text(json.dumps({"providers": {"small": provider}}))
    (home / "settings.json").write_text(json.dumps(settings or {}))
    return home


def _session(folder: Path, provider: str = "small", model: str = "tiny") -> Path:
    """Six turns of ~1000 tokens each (chars/4); the last answer reports 20000 input tokens."""
    file = folder / "s.jsonl"
    session = Session.open(file, create=True, cwd=str(folder), fsync=False)
    session.append_model_change(provider, model)
    for turn in range(6):
        session.append_message(user(f"question {turn} " + "q" * 4000))
        answer = assistant(text(f"answer {turn} " + "a" * 4000))
        answer["provider"], answer["model"] = provider, model
        if turn == 5:
            answer["usage"]["input"], answer["usage"]["totalTokens"] = 20000, 20005
        session.append_message(answer)
    session.flush(force=True)
    return file


def _json(*args: str, home: Path, cwd: Path) -> dict[str, Any]:
    """``session ARGS --json`` in this process (the text forms below run real ones)."""
    done = run_in_process("session", *args, "--json", home=home, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    return project


def test_estimate_uses_the_session_models_window(tmp_path, project) -> None:
    home = _home(tmp_path)
    file = _session(project)
    report = _json("estimate", str(file), home=home, cwd=project)
    assert report["window"] == 32000
    assert report["contextUsage"]["contextWindow"] == 32000
    assert report["checkCompaction"]["shouldCompact"] is True  # 20005 > 32000 - 16384
    wide = _json("estimate", str(file), "--window", "128000", home=home, cwd=project)
    assert wide["window"] == 128000 and wide["checkCompaction"]["shouldCompact"] is False


def test_unknown_model_falls_back_to_the_default_window(tmp_path, project) -> None:
    home = _home(tmp_path)
    file = _session(project, provider="nowhere", model="nothing")
    assert _json("estimate", str(file), home=home, cwd=project)["window"] == 128000


def test_a_providers_registered_default_model_window(tmp_path, project) -> None:
    home = _home(tmp_path)
    file = _session(project, provider="faux", model="faux-1")
    from tests.harness_helpers import plugin_manager
    from tether.builtin_plugins.providers.models.registry import ProviderRegistry

    expected = ProviderRegistry(plugin_manager(), home=home).find_model("faux", "faux-1")
    report = _json("estimate", str(file), home=home, cwd=project)
    assert report["window"] == expected.context_window


def test_prepare_uses_the_session_models_window(tmp_path, project) -> None:
    home = _home(tmp_path)
    file = _session(project)
    report = _json("prepare", str(file), home=home, cwd=project)
    assert report["window"] == 32000 and report["shouldCompact"] is True
    text_out = run_tether("session", "prepare", str(file), home=home, cwd=project).stdout
    assert "window 32000 - reserve 16384" in text_out
    wide = _json("prepare", str(file), "--window", "128000", home=home, cwd=project)
    assert wide["shouldCompact"] is False


def test_prepare_honours_settings_exactly_as_compact(tmp_path, project) -> None:
    home = _home(tmp_path, {"compaction": {"reserveTokens": 20000}})
    (project / ".tether").mkdir()
    (project / ".tether" / "settings.json").write_text(
        json.dumps({"compaction": {"keepRecentTokens": 1500}})
    )
    file = _session(project)
    report = _json("prepare", str(file), home=home, cwd=project)
    assert report["settings"] == {"enabled": True, "reserveTokens": 20000, "keepRecentTokens": 1500}
    default_keep = _json("prepare", str(file), "--keep", "20000", home=home, cwd=project)
    assert default_keep.get("firstKeptEntryId") != report["firstKeptEntryId"]  # setting counts

    done = run_tether(
        "session", "compact", str(file), "--summarizer", "offline", "--json", home=home, cwd=project
    )
    assert done.returncode == 0, done.stderr
    entry = json.loads(done.stdout)["entry"]
    assert entry["firstKeptEntryId"] == report["firstKeptEntryId"]
    assert entry["tokensBefore"] == report["tokensBefore"]


def test_disabled_compaction_is_never_due(tmp_path, project) -> None:
    home = _home(tmp_path, {"compaction": {"enabled": False}})
    file = _session(project)
    assert _json("prepare", str(file), home=home, cwd=project)["shouldCompact"] is False
    report = _json("estimate", str(file), home=home, cwd=project)
    assert report["settings"]["enabled"] is False
    assert report["checkCompaction"]["shouldCompact"] is False


@pytest.mark.parametrize(
    "files",
    [
        {},
        {"compaction": {"keepRecentTokens": "700", "strategy": "pi", "extra": {"a": 1}}},
        {"compaction": {"enabled": False, "reserveTokens": 5}},
    ],
)
@pytest.mark.parametrize("flags", [{}, {"keep": 10, "reserve": 20, "strategy": "pi"}])
def test_budget_equals_what_compact_reads(tmp_path, monkeypatch, files, flags) -> None:
    from tether.builtin_plugins.commands.budgets import compaction_budget
    from tether.core.base.settings import load_settings
    from tether.core.memory.compaction import compaction_settings

    home = _home(tmp_path, files)
    monkeypatch.setenv("TETHER_HOME", str(home))
    monkeypatch.chdir(tmp_path)
    names = {"keep": "keepRecentTokens", "reserve": "reserveTokens", "strategy": "strategy"}
    overrides = {names[k]: v for k, v in flags.items()}
    expected = compaction_settings(load_settings(overrides={"compaction": overrides}))
    assert compaction_budget(**{"keep": None, "reserve": None, **flags}) == expected


def test_prepare_with_flags_and_no_compaction_settings_imports_no_pydantic(
    tmp_path, project
) -> None:
    """The flags over pi's defaults need no settings model: a 100k-entry ``prepare`` does not
    pay ~70 ms for pydantic; the report is the one the settings model gives."""
    import os
    import subprocess
    import sys

    home = _home(tmp_path)
    file = _session(project)
    flags = ["--keep", "1500", "--reserve", "100", "--window", "8000", "--strategy", "pi"]
    probe = (
        "import sys\n"
        "from tether.core.cli.app import main\n"
        f"code = main(['session', 'prepare', {str(file)!r}, *{flags!r}, '--json'])\n"
        "print(code, 'pydantic' in sys.modules)\n"
    )
    env = {**os.environ, "TETHER_HOME": str(home), "TETHER_LOAD_PLUGINS": ""}
    env.pop("TETHER_STORE", None)
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=project
    )
    *report, last = done.stdout.strip().splitlines()
    assert last == "0 False", done.stdout + done.stderr
    assert json.loads("\n".join(report))["settings"] == {
        "enabled": True,
        "reserveTokens": 100,
        "keepRecentTokens": 1500,
    }
    bad = run_tether("session", "prepare", str(file), "--keep", "-1", home=home, cwd=project)
    assert bad.returncode != 0 and "keepRecentTokens" in bad.stderr, bad.stderr
    assert bad.stderr.startswith("tether: error: ") and "Traceback" not in bad.stderr
