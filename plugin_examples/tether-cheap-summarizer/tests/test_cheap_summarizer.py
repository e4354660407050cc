"""The cheap summarizer sends summary requests to the cheap model: as an installed plugin
(``tether session compact`` in a subprocess) and in-process (``tether.testing``). Not
configured, or when the user chose another summarizer explicitly, tether's built-in
summarizer answers. The models are faux models of a provider ``loop`` (``"api": "faux"``):
no network, and the test needs only ``tether`` and pytest.

Run from the tether repository root: ``python -m pytest plugin_examples/tether-cheap-summarizer``,
or from this folder once the plugin is installed.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
import tether_cheap_summarizer

from tether import Session
from tether.testing import faux_session, run_cli

SUMMARY = "## Goal\nKeep the tests green."
MODELS = {
    "providers": {
        "loop": {
            "api": "faux",
            "models": [
                {"id": "big-model", "contextWindow": 200000, "maxTokens": 8192},
                {"id": "cheap-model", "contextWindow": 32000, "maxTokens": 2048},
            ],
        }
    }
}
USAGE = {"input": 50, "output": 10, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 60}


def assistant(text: str) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": [{"type": "text", "text": text}],
        "api": "faux",
        "provider": "loop",
        "model": "big-model",
        "usage": {**USAGE, "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0,
                                    "total": 0}},
        "stopReason": "stop",
        "timestamp": 1_700_000_000_000,
    }  # fmt: skip


def project(tmp_path: Path, settings: dict[str, Any]) -> Path:
    """A home (models.json, settings.json) and a session of three long turns."""
    home = tmp_path / "home"
    home.mkdir(parents=True)
    (home / "models.json").write_text(json.dumps(MODELS), encoding="utf-8")
    (home / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    session = Session.open(tmp_path / "session.jsonl", create=True, cwd=str(tmp_path))
    for n in range(3):
        text = f"question {n}: " + "word " * 2000
        session.append_message({"role": "user", "content": text, "timestamp": 1_700_000_000_000})
        session.append_message(assistant(f"answer {n}: " + "text " * 2000))
    return tmp_path


def compact(cwd: Path, *args: str, script: list[Any]) -> subprocess.CompletedProcess[str]:
    # which model answers is the subject here: tether's summary gate (which would retry the
    # short scripted summaries) is off; test_a_tool_call_reply_goes_to_the_gate covers it
    return run_cli(
        "session", "compact", "session.jsonl", "--keep", "3000", *args,
        home=cwd / "home", cwd=cwd, script=script,
        env={"TETHER_DISABLE_PLUGINS": "summary_gate"},
    )  # fmt: skip


def test_installed_plugin_sends_summaries_to_the_cheap_model(tmp_path: Path) -> None:
    settings = {
        "compaction": {"model": "loop/big-model", "summarizer": "cheap"},
        "cheapSummarizer": {"model": "loop/cheap-model"},
    }
    cwd = project(tmp_path, settings)
    result = compact(cwd, script=[SUMMARY, "## Original Request\nfix it"])
    assert result.returncode == 0, result.stderr
    assert "summarizer: cheap (loop/cheap-model)" in result.stdout
    entry = json.loads((cwd / "session.jsonl").read_text(encoding="utf-8").splitlines()[-1])
    assert entry["type"] == "compaction" and entry["summary"].startswith(SUMMARY)


def test_not_configured_the_builtin_summarizer_answers(tmp_path: Path) -> None:
    chosen = {"model": "loop/big-model", "summarizer": "cheap"}  # but no cheapSummarizer
    cwd = project(tmp_path, {"compaction": chosen})
    result = compact(cwd, script=[SUMMARY, "## Original Request\nfix it"])
    assert result.returncode == 0, result.stderr
    # recorded under the chosen name, written by the session's own model
    assert "summarizer: cheap (loop/big-model)" in result.stdout


def test_installed_but_not_chosen_or_overridden_by_the_flag(tmp_path: Path) -> None:
    settings = {
        "compaction": {"model": "loop/big-model"},
        "cheapSummarizer": {"model": "loop/cheap-model"},
    }
    cwd = project(tmp_path, settings)
    result = compact(cwd, script=[SUMMARY, "## Original Request\nfix it"])
    assert result.returncode == 0, result.stderr
    assert "summarizer: llm (loop/big-model)" in result.stdout  # configured, but not chosen
    settings["compaction"]["summarizer"] = "cheap"
    other = project(tmp_path / "flag", settings)
    again = compact(other, "--summarizer", "llm", script=[SUMMARY])
    assert again.returncode == 0, again.stderr
    assert "summarizer: llm (loop/big-model)" in again.stdout  # the flag wins


@pytest.mark.parametrize(
    ("kinds", "model"), [(None, "loop/cheap-model"), (["branch"], "loop/big-model")]
)
def test_the_summary_requests_go_to_the_cheap_model(kinds: Any, model: str) -> None:
    """In-process: the summary requests the faux models received, by model; ``kinds``
    limits the cheap model to the summaries it names."""
    cheap = {"model": "loop/cheap-model", **({"kinds": kinds} if kinds else {})}
    settings = {
        "compaction": {"model": "loop/big-model", "summarizer": "cheap", "keepRecentTokens": 1},
        "cheapSummarizer": cheap,
    }
    plugins = [("cheap_summarizer", tether_cheap_summarizer)]
    script = ["one", "two", SUMMARY, SUMMARY]
    with faux_session(plugins=plugins, settings=settings, models=MODELS, model="loop/big-model",
                      disabled=["summary_gate"], script=script) as t:  # fmt: skip
        t.prompt("first question")
        t.prompt("second question")
        outcome = t.compact()
        asked = [r.model for r in t.requests]
    assert asked[:2] == ["loop/big-model"] * 2  # the session's turns
    assert asked[2:] and set(asked[2:]) == {model}  # the summaries
    assert outcome.summarizer == "cheap"  # the name it was chosen by, whoever wrote it


def test_a_tool_call_reply_of_the_cheap_model_goes_to_the_gate(tmp_path: Path) -> None:
    """The cheap summary passes the reply's problem on: with tether's summary gate on, a
    tool call from the cheap model is retried once, then the offline summarizer takes over."""
    settings = {
        "compaction": {"model": "loop/big-model", "summarizer": "cheap"},
        "cheapSummarizer": {"model": "loop/cheap-model"},
    }
    cwd = project(tmp_path, settings)
    tool_call = {"text": "Step 1: reading.", "toolCalls": [{"name": "read", "arguments": {}}]}
    script = [tool_call] * 4
    result = run_cli("session", "compact", "session.jsonl", "--keep", "3000", "--json",
                     home=cwd / "home", cwd=cwd, script=script)  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["gate"]["verdict"] == "fallback"
    assert (
        "summarizer 'llm' (loop/cheap-model): the model answered with a tool call"
        in report["gate"]["missing"][0]
    )
    assert "Step 1: reading." not in report["entry"]["summary"]
