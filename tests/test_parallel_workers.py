"""Under pytest-xdist (the README's ``-n auto``) a test marked ``alone`` (it measures its own
wall time) runs while no other test does (tests/conftest.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.store_helpers import ROOT

CONFTEST = "from tests.conftest import _alone_or_together, pytest_configure  # noqa: F401\n"
TESTS = """
import json, os, time
import pytest

def _note(name, log):
    start = time.monotonic()
    time.sleep(0.3)
    run = [name, os.environ["PYTEST_XDIST_WORKER"], start, time.monotonic()]
    with open(log, "a") as out:
        out.write(json.dumps(run) + "\\n")

@pytest.mark.parametrize("n", range(6))
def test_together(n):
    _note(f"together{n}", os.environ["LOG"])

@pytest.mark.alone
@pytest.mark.parametrize("n", range(2))
def test_alone(n):
    _note(f"alone{n}", os.environ["LOG"])
"""


def test_an_alone_test_never_overlaps_another(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_overlap.py").write_text(TESTS)
    log = tmp_path / "log.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.update(LOG=str(log), PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2"]
        + ["--basetemp", str(tmp_path / "bt"), "test_overlap.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    runs = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(runs) == 8 and {worker for _, worker, _, _ in runs} == {"gw0", "gw1"}
    for name, _, start, end in runs:
        if name.startswith("alone"):
            others = [r for r in runs if r[0] != name and r[2] < end and start < r[3]]
            assert others == [], (name, others)
