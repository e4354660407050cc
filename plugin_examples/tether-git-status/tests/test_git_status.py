"""tether-git-status: the git status reaches the session file and the model's request.

Run from the repository root: ``python -m pytest plugin_examples/tether-git-status``
(after ``pip install -e plugin_examples/tether-git-status``; the tests also work without the
install, loading the plugin module from this folder).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

PACKAGE_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PACKAGE_DIR))

from tether_git_status import plugin  # noqa: E402

from tests.harness_helpers import open_harness, plugin_manager, read_entries, write_home  # noqa: E402
from tests.servers import OpenAIServer  # noqa: E402

MODEL = "loop/test-model"


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


@pytest.fixture
def server():
    with OpenAIServer() as server:
        yield server


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("TETHER_HOME", str(home))
    monkeypatch.setenv("TETHER_FSYNC", "0")
    return home


def test_status_in_session_file_and_request_body(server, home, repo):
    write_home(home, server)
    server.text("You are on feature/x with two changes.")
    pm = plugin_manager(("git_status", plugin))
    with open_harness(pm, repo, home, MODEL) as harness:
        harness.prompt("where am I?")
        file = harness.session.file

    [entry] = [e for e in read_entries(file) if e["type"] == "custom_message"]
    assert entry["customType"] == "git-status"
    assert entry["display"] is False
    assert "Git branch: feature/x" in entry["content"]
    assert " M tracked.txt" in entry["content"] and "?? new.txt" in entry["content"]
    assert entry["details"]["branch"] == "feature/x"

    sent = server.last_request.body["messages"]
    assert sent[-2] == {"role": "user", "content": "where am I?"}
    assert sent[-1]["role"] == "user" and "Git branch: feature/x" in json.dumps(sent[-1])
    assert "?? new.txt" in json.dumps(sent[-1])


def test_display_setting(server, home, repo):
    write_home(home, server, settings={"plugins": {"git_status": {"display": True, "maxFiles": 1}}})
    server.text("ok")
    with open_harness(plugin_manager(("git_status", plugin)), repo, home, MODEL) as harness:
        harness.prompt("hi")
        file = harness.session.file
    [entry] = [e for e in read_entries(file) if e["type"] == "custom_message"]
    assert entry["display"] is True
    assert "… and 1 more" in entry["content"]


def test_skipped_outside_a_git_repository(server, home, tmp_path):
    plain = tmp_path / "plain"
    plain.mkdir()
    write_home(home, server)
    server.text("ok")
    with open_harness(plugin_manager(("git_status", plugin)), plain, home, MODEL) as harness:
        harness.prompt("hi")
        file = harness.session.file
    assert not [e for e in read_entries(file) if e["type"] == "custom_message"]
    assert len(server.last_request.body["messages"]) == 2  # system + the prompt


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
