"""A root option of ``tether`` given after the command: ``tether run --disable-plugin X …``
works as ``tether --disable-plugin X run …`` (it used to fail with "No such option"), as
``--store`` already may stand anywhere on the line."""

from __future__ import annotations

import json
from pathlib import Path

from tests.store_helpers import run_tether
from tether.core.cli.argv import hoist_root_options


def test_a_root_option_after_the_command_is_moved_before_it(tmp_path: Path) -> None:
    """``tether plugins --disable-plugin tool_guard`` (the example plugin, installed for the
    suite) blocks it as ``tether --disable-plugin tool_guard plugins`` does."""
    env = {"TETHER_HOME": str(tmp_path), "TETHER_LOAD_PLUGINS": None}
    env["TETHER_DISABLE_PLUGINS"] = None
    args = ("plugins", "--json", "--disable-plugin", "tool_guard")
    done = run_tether(*args, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    rows = {row["name"]: row["status"] for row in json.loads(done.stdout)["plugins"]}
    assert rows["tool_guard"] == "blocked"


def test_only_root_options_before_the_double_dash_move() -> None:
    line = ["run", "--disable-plugin=a", "hi", "--disable-plugin", "b", "--", "--disable-plugin"]
    assert hoist_root_options(line) == [
        "--disable-plugin=a", "--disable-plugin", "b", "run", "hi", "--", "--disable-plugin"
    ]  # fmt: skip
    assert hoist_root_options(["--disable-plugin", "a", "plugins"]) == [
        "--disable-plugin", "a", "plugins"
    ]  # fmt: skip
