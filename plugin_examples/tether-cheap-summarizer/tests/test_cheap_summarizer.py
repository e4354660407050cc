"""The cheap summarizer sends summary requests to the cheap model, through a real loopback
OpenAI-compatible server: as an installed plugin (``tether session compact`` in a subprocess)
and in-process with the plugins registered in either order. Not configured, or when the user
chose another summarizer explicitly, tether's built-in summarizer answers.

Run from the tether repository root: ``python -m pytest plugin_examples/tether-cheap-summarizer``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import tether_cheap_summarizer

from tests.servers import OpenAIServer
from tether.builtin_plugins.memory import llm_summarizer, offline_summarizer
from tether.builtin_plugins.providers import http as http_client
from tether.builtin_plugins.providers import openai as provider_openai
from tether.builtin_plugins.providers.models.registry import ProviderRegistry
from tether.core.base.settings import Settings
from tether.core.choices.running import run_summarizer
from tether.core.host.manager import create_plugin_manager
from tether.hookspecs.events import SummarizeRequest

REPO = Path(__file__).resolve().parents[3]
SESSION = REPO / "tests" / "fixtures" / "pi" / "gen" / "g03-linear-tools.jsonl"
SUMMARY = "## Goal\nKeep the tests green."


def models(server: OpenAIServer) -> dict[str, Any]:
    return {
        "providers": {
            "loop": {
                "baseUrl": server.base_url,
                "api": "openai-completions",
                "models": [
                    {"id": "big-model", "contextWindow": 200000, "maxTokens": 8192},
                    {"id": "cheap-model", "contextWindow": 32000, "maxTokens": 2048},
                ],
            }
        }
    }


def project(tmp_path: Path, server: OpenAIServer, settings: dict[str, Any]) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    (home / "models.json").write_text(json.dumps(models(server)), encoding="utf-8")
    (home / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    shutil.copyfile(SESSION, tmp_path / "session.jsonl")
    return tmp_path


def compact(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TETHER_HOME": str(cwd / "home"), "TETHER_FSYNC": "0"}
    env.pop("TETHER_LOAD_PLUGINS", None)
    # which model answers is the subject here: tether's summary gate (which would retry the
    # short scripted summaries) is off; test_a_tool_call_reply_goes_to_the_gate covers it
    env["TETHER_DISABLE_PLUGINS"] = "summary_gate"
    return subprocess.run(
        [sys.executable, "-m", "tether", "session", "compact", "session.jsonl", "--keep", "3000"]
        + list(args),
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_installed_plugin_sends_summaries_to_the_cheap_model(tmp_path: Path) -> None:
    with OpenAIServer() as server:
        server.text(SUMMARY)
        server.text("## Original Request\nfix it")
        settings = {
            "compaction": {"model": "loop/big-model", "summarizer": "cheap"},
            "cheapSummarizer": {"model": "loop/cheap-model"},
        }
        cwd = project(tmp_path, server, settings)
        result = compact(cwd)
        sent = [request.body["model"] for request in server.requests]
    assert result.returncode == 0, result.stderr
    assert sent == ["cheap-model", "cheap-model"]  # history and split-turn prefix
    assert "summarizer: cheap (loop/cheap-model)" in result.stdout
    entry = json.loads((cwd / "session.jsonl").read_text(encoding="utf-8").splitlines()[-1])
    assert entry["type"] == "compaction" and entry["summary"].startswith(SUMMARY)


def test_not_configured_the_builtin_summarizer_answers(tmp_path: Path) -> None:
    with OpenAIServer() as server:
        server.text(SUMMARY)
        server.text("## Original Request\nfix it")
        chosen = {"model": "loop/big-model", "summarizer": "cheap"}  # but no cheapSummarizer
        cwd = project(tmp_path, server, {"compaction": chosen})
        result = compact(cwd)
        sent = [request.body["model"] for request in server.requests]
    assert result.returncode == 0, result.stderr
    assert sent == ["big-model", "big-model"]
    assert "summarizer: llm (loop/big-model)" in result.stdout


def test_installed_but_not_chosen_or_overridden_by_the_flag(tmp_path: Path) -> None:
    with OpenAIServer() as server:
        server.text(SUMMARY)
        server.text("## Original Request\nfix it")
        settings = {
            "compaction": {"model": "loop/big-model"},
            "cheapSummarizer": {"model": "loop/cheap-model"},
        }
        cwd = project(tmp_path, server, settings)
        result = compact(cwd)
        sent = [request.body["model"] for request in server.requests]
    assert result.returncode == 0, result.stderr
    assert sent == ["big-model", "big-model"]  # installed and configured, but not chosen
    assert "summarizer: llm (loop/big-model)" in result.stdout


def test_an_explicit_flag_wins_over_the_cheap_setting(tmp_path: Path) -> None:
    with OpenAIServer() as server:
        server.text(SUMMARY)
        server.text("## Original Request\nfix it")
        settings = {
            "compaction": {"model": "loop/big-model", "summarizer": "cheap"},
            "cheapSummarizer": {"model": "loop/cheap-model"},
        }
        cwd = project(tmp_path, server, settings)
        result = compact(cwd, "--summarizer", "llm")
        sent = [request.body["model"] for request in server.requests]
    assert result.returncode == 0, result.stderr
    assert sent == ["big-model", "big-model"]
    assert "summarizer: llm (loop/big-model)" in result.stdout


BUILTINS = [
    ("llm_summarizer", llm_summarizer),
    ("offline_summarizer", offline_summarizer),
    ("provider_openai", provider_openai),
    ("http_client", http_client),
]
CHEAP = [("cheap_summarizer", tether_cheap_summarizer)]


@pytest.mark.parametrize("order", ["cheap last", "cheap first"], ids=str)
def test_cheap_model_whatever_the_load_order(tmp_path: Path, order: str) -> None:
    plugins = BUILTINS + CHEAP if order == "cheap last" else CHEAP + BUILTINS
    pm = create_plugin_manager(load_entry_points=False, plugins=plugins, environ={})
    settings = Settings.model_validate(
        {
            "compaction": {"model": "loop/big-model", "summarizer": "cheap"},
            "cheapSummarizer": {"model": "loop/cheap-model", "kinds": ["branch"]},
        }
    )
    with OpenAIServer() as server:
        server.text("branch summary")
        server.text("history summary")
        (tmp_path / "models.json").write_text(json.dumps(models(server)), encoding="utf-8")
        with ProviderRegistry(pm, home=tmp_path, environ={}, settings=settings) as registry:
            answers = []
            for kind in ("branch", "compaction"):
                request = SummarizeRequest(
                    kind=kind,
                    messages=[{"role": "user", "content": "fix the parser", "timestamp": 1}],
                    settings=settings.compaction.model_dump(by_alias=True, exclude_none=True),
                    registry=registry,
                    app_settings=settings,
                )
                answers.append(run_summarizer(pm, request))
        sent = [request.body["model"] for request in server.requests]
    assert sent == ["cheap-model", "big-model"]  # "kinds" limits it to branch summaries
    assert [a.summarizer for a in answers] == ["cheap", "llm"]
    assert answers[0].text == "branch summary"
    assert answers[0].details["model"] == "loop/cheap-model"


def test_a_tool_call_reply_of_the_cheap_model_goes_to_the_gate(tmp_path: Path) -> None:
    """The cheap summary passes the reply's problem on: with tether's summary gate on, a
    tool call from the cheap model is retried once, then the offline summarizer takes over."""
    from tests.servers import ToolCall

    with OpenAIServer() as server:
        for _ in range(2):
            server.reply(text="Step 1: reading.", tool_calls=[ToolCall("read", {"path": "a"})])
            server.text("## Original Request\nfix it")
        settings = {
            "compaction": {"model": "loop/big-model", "summarizer": "cheap"},
            "cheapSummarizer": {"model": "loop/cheap-model"},
        }
        cwd = project(tmp_path, server, settings)
        env = {**os.environ, "TETHER_HOME": str(cwd / "home"), "TETHER_FSYNC": "0"}
        env.pop("TETHER_LOAD_PLUGINS", None)
        env.pop("TETHER_DISABLE_PLUGINS", None)
        args = ["session", "compact", "session.jsonl", "--keep", "3000", "--json"]
        result = subprocess.run(
            [sys.executable, "-m", "tether", *args],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        sent = [request.body["model"] for request in server.requests]
    assert result.returncode == 0, result.stderr
    assert sent == ["cheap-model"] * 4  # history + prefix, then the retry of both
    report = json.loads(result.stdout)
    assert report["gate"]["verdict"] == "fallback"
    assert (
        "summarizer 'llm' (loop/cheap-model): the model answered with a tool call"
        in (report["gate"]["missing"][0])
    )
    assert "Step 1: reading." not in report["entry"]["summary"]
