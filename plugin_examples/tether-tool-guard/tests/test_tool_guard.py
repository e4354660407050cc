"""tether-tool-guard: refused calls never run and the reason reaches the model.

Run from the repository root: ``python -m pytest plugin_examples/tether-tool-guard``
(after ``pip install -e plugin_examples/tether-tool-guard``; the tests also work without the
install, loading the plugin module from this folder).
"""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path

import pytest

PACKAGE_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PACKAGE_DIR))

from tether_tool_guard import plugin  # noqa: E402
from tether_tool_guard.plugin import Rules, check_command, check_write  # noqa: E402

from tests.harness_helpers import open_harness, plugin_manager, read_entries, write_home  # noqa: E402
from tests.servers import OpenAIServer, ToolCall  # noqa: E402

MODEL = "loop/test-model"


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf /",
        "rm -rf / ",
        "sudo rm -fr /*",
        "rm -r -f ~",
        "cd x && rm -rf $HOME",
        "mkfs.ext4 /dev/sda1",
        "dd if=/dev/zero of=/dev/sda bs=1M",
        ":(){ :|:& };:",
        "chmod -R 777 /",
        "git push --force origin main",
        "git push -f",
    ],
)
def test_dangerous_commands_are_refused(command):
    assert check_command(command, Rules.from_settings({})) is not None


@pytest.mark.parametrize(
    "command",
    ["rm -rf ./build", "rm -rf /tmp/scratch/out", "ls /", "git push origin main", "echo rm"],
)
def test_ordinary_commands_pass(command):
    assert check_command(command, Rules.from_settings({})) is None


def test_configured_command_rules():
    rules = Rules.from_settings({"blockedCommands": [r"\bsudo\b"]})
    assert check_command("sudo ls", rules) is not None
    assert check_command("rm -rf /", rules) is not None
    only = Rules.from_settings({"blockedCommands": [r"\bsudo\b"], "replaceDefaults": True})
    assert check_command("rm -rf /", only) is None


def test_writes_outside_the_project(tmp_path):
    project = tmp_path / "project"
    (project / "sub").mkdir(parents=True)
    rules = Rules.from_settings({"allowedWriteDirs": [str(tmp_path / "scratch")]})
    assert check_write("sub/a.txt", str(project), rules) is None
    assert check_write(str(project / "b.txt"), str(project), rules) is None
    assert check_write("../escape.txt", str(project), rules) is not None
    assert check_write("/etc/passwd", str(project), rules) is not None
    assert check_write(str(tmp_path / "scratch" / "x"), str(project), rules) is None
    os.symlink(tmp_path, project / "link")
    assert check_write("link/escape.txt", str(project), rules) is not None  # symlinks resolved


@pytest.fixture
def server():
    with OpenAIServer() as server:
        yield server


def test_blocks_reach_the_model_as_tool_results(server, tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("TETHER_HOME", str(home))
    monkeypatch.setenv("TETHER_FSYNC", "0")
    project = tmp_path / "project"
    project.mkdir()
    write_home(home, server)
    server.tool_calls(
        ToolCall("bash", {"command": "rm -rf /"}, id="b1"),
        ToolCall("write", {"path": "../outside.txt", "content": "x"}, id="w1"),
        ToolCall("write", {"path": "inside.txt", "content": "fine"}, id="w2"),
    )
    server.text("Understood, I will not do that.")
    with open_harness(plugin_manager(("tool_guard", plugin)), project, home, MODEL) as harness:
        harness.prompt("clean up everything")
        file = harness.session.file

    assert not (tmp_path / "outside.txt").exists()
    assert (project / "inside.txt").read_text() == "fine"
    tools = [m for m in server.last_request.body["messages"] if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tools] == ["b1", "w1", "w2"]
    assert tools[0]["content"].startswith("tool-guard: refused bash command")
    assert "outside the project" in tools[1]["content"]
    assert "tool-guard" not in tools[2]["content"]
    stored = [e["message"] for e in read_entries(file) if e["type"] == "message"]
    results = [m for m in stored if m["role"] == "toolResult"]
    assert [m["isError"] for m in results] == [True, True, False]


def test_entry_point_declared():
    data = tomllib.loads((PACKAGE_DIR / "pyproject.toml").read_text())
    target = data["project"]["entry-points"]["tether.plugins"]["tool_guard"]
    assert target == "tether_tool_guard.plugin"
    assert hasattr(plugin.before_tool_call, "tether_impl")
