"""``tether run`` on a model that is not reached over HTTP (the offline ``faux`` provider)
never imports httpx: the HTTP adapters import it where a call is made."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PROBE = """
import sys
from tether.core.cli.app import main
code = main(["run", "--provider", "faux", "hi"])
print(code, "httpx" in sys.modules)
"""


def test_a_faux_run_does_not_import_httpx(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TETHER_DEBUG"}
    env.update(TETHER_HOME=str(tmp_path / "home"), TETHER_FSYNC="0", TETHER_LOAD_PLUGINS="")
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["You said: hi", "0 False"], done.stdout + done.stderr
