"""tether-tool-guard: refused calls never run and the reason reaches the model.

Run from the repository root: ``python -m pytest plugin_examples/tether-tool-guard``, or from
this folder once the plugin is installed (the tests need only ``tether`` and pytest: the
model's side is ``tether.testing``'s scripted faux model).
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
from tether_tool_guard import plugin
from tether_tool_guard.plugin import Rules, check_command, check_write

from tether.testing import faux_session

PACKAGE_DIR = Path(__file__).resolve().parents[1]


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


def call(name, arguments, call_id):
    return {"name": name, "arguments": arguments, "id": call_id}


def test_blocks_reach_the_model_as_tool_results(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    calls = [
        call("bash", {"command": "rm -rf /"}, "b1"),
        call("write", {"path": "../outside.txt", "content": "x"}, "w1"),
        call("write", {"path": "inside.txt", "content": "fine"}, "w2"),
    ]
    script = [{"toolCalls": calls}, "Understood, I will not do that."]
    with faux_session(plugins=[("tool_guard", plugin)], script=script, cwd=project) as t:
        assert t.prompt("clean up everything").text == "Understood, I will not do that."
        entries = t.entries()
        sent = t.requests[-1].messages

    assert not (tmp_path / "outside.txt").exists()
    assert (project / "inside.txt").read_text() == "fine"
    results = [m for m in sent if m["role"] == "toolResult"]
    assert [m["toolCallId"] for m in results] == ["b1", "w1", "w2"]
    texts = [m["content"][0]["text"] for m in results]
    assert texts[0].startswith("tool-guard: refused bash command")
    assert "outside the project" in texts[1]
    assert "tool-guard" not in texts[2]
    stored = [e["message"] for e in entries if e["type"] == "message"]
    assert [m["isError"] for m in stored if m["role"] == "toolResult"] == [True, True, False]


def test_entry_point_declared():
    data = tomllib.loads((PACKAGE_DIR / "pyproject.toml").read_text())
    target = data["project"]["entry-points"]["tether.plugins"]["tool_guard"]
    assert target == "tether_tool_guard.plugin"
    assert hasattr(plugin.before_tool_call, "tether_impl")
