"""Reading a session from a database store costs what reading a JSONL file costs: no settings
load (pydantic) only to open the store; the ``session.fsync`` setting still decides the
durability of the first write."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.store_helpers import CORPUS

SAMPLE = next(p for p in CORPUS if p.stem == "g09-bash-exec")
ENV = {**os.environ, "TETHER_LOAD_PLUGINS": ""}


def tether(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "tether", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd, timeout=60)


def test_context_from_a_sqlite_store_loads_no_settings(tmp_path: Path) -> None:
    uri = f"sqlite:///{tmp_path}/sessions.db"
    env = {**ENV, "TETHER_STORE": uri, "TETHER_HOME": str(tmp_path / "home")}
    done = tether("session", "import", str(SAMPLE), "--json", env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    [imported] = json.loads(done.stdout)
    probe = (
        "import sys\n"
        "from tether.core.cli.app import main\n"
        f"code = main(['session', 'context', {imported['sessionId']!r}, '--quiet'])\n"
        "print(code, 'pydantic' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert done.stdout.strip().splitlines()[-1] == "0 False", done.stdout + done.stderr


def test_the_fsync_setting_still_decides_the_first_write(tmp_path: Path) -> None:
    from tether.builtin_plugins.storage.sqlite import open_store
    from tether.core.base.settings_peek import LazySettings

    project = tmp_path / "project"
    (project / ".tether").mkdir(parents=True)
    (project / ".tether" / "settings.json").write_text('{"session": {"fsync": false}}')
    (tmp_path / "s.db").touch()  # an empty database: opened (set up) before any write
    database = open_store(f"sqlite:///{tmp_path}/s.db", LazySettings(project))
    pragma = "PRAGMA synchronous"
    assert database._db.execute(pragma).fetchone()[0] == 2  # FULL until a write asks
    database.import_session(SAMPLE.read_bytes(), str(SAMPLE))
    assert database._db.execute(pragma).fetchone()[0] == 1  # NORMAL: the setting's
    again = sqlite3.connect(tmp_path / "s.db")
    assert again.execute("SELECT count(*) FROM sessions").fetchone()[0] == 1
