"""An empty FILE argument (``tether session show ""``) is refused by name: it used to read as
``Path("") == "."``, reported as "no session with an id starting with '.'" (database store)
or "is a directory" (JSONL)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.store_helpers import run_tether

SAID = (
    "tether: error: Invalid value for 'FILE': empty: expected a session file, "
    "or a session id or id prefix"
)


def test_with_a_database_store(tmp_path: Path) -> None:
    store = ["--store", f"sqlite:///{tmp_path / 'db.sqlite'}"]
    env = {"TETHER_HOME": str(tmp_path / "home"), "TETHER_FSYNC": "0"}
    done = run_tether(*store, "session", "show", "", env=env, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines()[0] == SAID


@pytest.mark.parametrize("command", ["show", "tree", "stats", "context", "export"])
def test_in_every_session_command(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    from tether.core.cli.app import main
    from tether.core.host.manager import create_plugin_manager

    monkeypatch.setenv("TETHER_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    code = main(["session", command, ""], pm=create_plugin_manager())
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err.splitlines()[0] == SAID
    assert list(tmp_path.iterdir()) == []
