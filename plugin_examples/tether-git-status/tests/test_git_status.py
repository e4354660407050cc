"""tether-git-status: the git status reaches the session file and the model's request.

Run from the repository root: ``python -m pytest plugin_examples/tether-git-status``, or from
this folder once the plugin is installed (the tests need only ``tether`` and pytest: the
model's side is ``tether.testing``'s scripted faux model).
"""

from __future__ import annotations

import json
import subprocess
import tomllib
from pathlib import Path

import pytest
from tether_git_status import plugin

from tether.testing import faux_session

PACKAGE_DIR = Path(__file__).resolve().parents[1]


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "-c", "init.defaultBranch=main", "init")
    git(repo, "config", "user.email", "t@example.com")
    git(repo, "config", "user.name", "T")
    (repo / "tracked.txt").write_text("v1\n")
    git(repo, "add", "tracked.txt")
    git(repo, "commit", "-m", "first")
    git(repo, "checkout", "-b", "feature/x")
    (repo / "tracked.txt").write_text("v2\n")
    (repo / "new.txt").write_text("new\n")
    return repo


def test_status_in_session_file_and_request_body(repo):
    script = ["You are on feature/x with two changes."]
    with faux_session(plugins=[("git_status", plugin)], script=script, cwd=repo) as t:
        t.prompt("where am I?")
        entries = t.entries()
        sent = t.requests[-1].messages

    [entry] = [e for e in entries if e["type"] == "custom_message"]
    assert entry["customType"] == "git-status"
    assert entry["display"] is False
    assert "Git branch: feature/x" in entry["content"]
    assert " M tracked.txt" in entry["content"] and "?? new.txt" in entry["content"]
    assert entry["details"]["branch"] == "feature/x"

    assert sent[-2]["role"] == "user" and "where am I?" in json.dumps(sent[-2])
    assert sent[-1]["role"] == "user" and "Git branch: feature/x" in json.dumps(sent[-1])
    assert "?? new.txt" in json.dumps(sent[-1])


def test_display_setting(repo):
    settings = {"plugins": {"git_status": {"display": True, "maxFiles": 1}}}
    with faux_session(plugins=[("git_status", plugin)], settings=settings, cwd=repo) as t:
        t.prompt("hi")
        entries = t.entries()
    [entry] = [e for e in entries if e["type"] == "custom_message"]
    assert entry["display"] is True
    assert "… and 1 more" in entry["content"]


def test_skipped_outside_a_git_repository(tmp_path):
    plain = tmp_path / "plain"
    plain.mkdir()
    with faux_session(plugins=[("git_status", plugin)], cwd=plain) as t:
        assert t.prompt("hi").text == "You said: hi"  # the faux model's echo
        entries = t.entries()
        sent = t.requests[-1].messages
    assert not [e for e in entries if e["type"] == "custom_message"]
    assert [m["role"] for m in sent] == ["user"]  # the prompt alone


def test_clean_tree_and_missing_git(repo, monkeypatch):
    git(repo, "add", "-A")
    git(repo, "commit", "-m", "all")
    status = plugin.read_git_status(str(repo))
    assert status == {"branch": "feature/x", "changes": []}
    assert "Working tree clean" in plugin.format_status(status)
    monkeypatch.setenv("PATH", "/nonexistent")
    assert plugin.read_git_status(str(repo)) is None


def test_entry_point_declared():
    data = tomllib.loads((PACKAGE_DIR / "pyproject.toml").read_text())
    target = data["project"]["entry-points"]["tether.plugins"]["git_status"]
    assert target == "tether_git_status.plugin"
    assert hasattr(plugin.before_agent_start, "tether_impl")
