"""The faux model answers the user's prompt, not a message a plugin injected with it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from tests.store_helpers import run_tether
from tether.builtin_plugins.providers.faux.provider import default_step
from tether.core.context.convert import convert_to_llm
from tether.hookspecs.providers import LlmContext


def _user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": 1}


def _custom(text: str) -> dict[str, Any]:
    return {"role": "custom", "customType": "x", "content": text, "display": True, "timestamp": 2}


def test_injected_and_converted_messages_do_not_become_the_prompt() -> None:
    bash = {"role": "bashExecution", "command": "ls", "output": "a.txt", "exitCode": 0}
    branch = {"role": "branchSummary", "summary": "earlier work", "fromId": "x", "timestamp": 0}
    answer = {"role": "assistant", "content": [{"type": "text", "text": "ok"}], "timestamp": 0}
    agent_messages = [_user("old"), answer, branch, bash, _user("hi"), _custom("Git branch: main")]
    context = LlmContext("", convert_to_llm(agent_messages))
    assert default_step(context) == {"text": "You said: hi"}
    # steering after a tool result: the newest messages of the turn are the prompt
    assert default_step(LlmContext("", [_user("only")])) == {"text": "You said: only"}


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def test_faux_run_with_git_status_installed_echoes_the_prompt(tmp_path: Path) -> None:
    home, repo = tmp_path / "home", tmp_path / "repo"
    home.mkdir()
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "master")
    env = {"HOME": str(home), "TETHER_LOAD_PLUGINS": None, "TETHER_DISABLE_PLUGINS": None}
    listed = run_tether("plugins", "--json", cwd=repo, env=env)
    names = {row["name"]: row["status"] for row in json.loads(listed.stdout)["plugins"]}
    assert names.get("git_status") == "loaded", "the tether-git-status example must be installed"

    done = run_tether("run", "--no-session", "--provider", "faux", "hi", cwd=repo, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "You said: hi"
    shown = run_tether("run", "--json", "--provider", "faux", "hi", cwd=repo, env=env)
    sent = [json.loads(line) for line in shown.stdout.splitlines()]
    custom = [e for e in sent if e.get("message", {}).get("customType") == "git-status"]
    assert custom, "the git-status message is still sent to the model"
