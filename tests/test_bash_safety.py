"""The bash tool's safety with real processes: private full-output files with age-based
clean-up (issue 7 item 14), and no child left running when tether gets SIGTERM or SIGHUP
(issue 7 item 15)."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.harness_helpers import NO_THIRD_PARTY, REPO, read_entries, session_files
from tether.core.session.session import Session


def _env(home: Path, tmpdir: Path, script: list[object]) -> dict[str, str]:
    return {
        **os.environ,
        "TETHER_HOME": str(home),
        "TETHER_FSYNC": "0",
        "TMPDIR": str(tmpdir),
        "PYTHONPATH": str(REPO),
        "TETHER_FAUX_SCRIPT": json.dumps(script),
        **NO_THIRD_PARTY,
    }


def _bash_step(command: str) -> dict[str, object]:
    return {"toolCalls": [{"name": "bash", "arguments": {"command": command}, "id": "b1"}]}


def _tether(*args: str) -> list[str]:
    return [sys.executable, "-m", "tether", *args]


def test_full_output_file_is_private_in_a_per_user_folder_and_old_ones_go(tmp_path: Path):
    home, tmpdir, project = tmp_path / "home", tmp_path / "tmp", tmp_path / "project"
    tmpdir.mkdir()
    project.mkdir()
    folder = tmpdir / f"tether-{os.getuid()}" / "bash"
    folder.mkdir(parents=True)
    old, fresh = folder / "tether-bash-old.log", folder / "tether-bash-fresh.log"
    old.write_text("old output")
    fresh.write_text("fresh output")
    two_days_ago = time.time() - 2 * 86400
    os.utime(old, (two_days_ago, two_days_ago))
    env = _env(home, tmpdir, [_bash_step("seq 1 3000"), "done"])
    done = subprocess.run(
        ["sh", "-c", 'umask 000 && exec "$@"', "sh", *_tether("run", "--provider", "faux", "go")],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    [file] = session_files(home)
    [result] = [
        e["message"]
        for e in read_entries(file)
        if e.get("type") == "message" and e["message"]["role"] == "toolResult"
    ]
    path = Path(result["details"]["fullOutputPath"])
    assert path.parent == folder
    assert path.read_text() == "".join(f"{i}\n" for i in range(1, 3001))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(folder.parent.stat().st_mode) == 0o700
    assert not old.exists()  # older than a day: removed when a new file was made
    assert fresh.exists()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/stat")
    if status.exists():  # a zombie is dead too
        return status.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    return True


@pytest.mark.parametrize(
    ("command", "signum"),
    [("run", signal.SIGTERM), ("run", signal.SIGHUP), ("chat", signal.SIGHUP)],
)
def test_sigterm_and_sighup_kill_the_bash_tools_children(tmp_path: Path, command: str, signum: int):
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    pidfile = project / "child.pid"
    line = f"sleep 30 & echo $! > {pidfile}; wait"
    env = _env(home, tmp_path, [_bash_step(line), "never reached"])
    proc = subprocess.Popen(
        _tether(command, "--provider", "faux", "start a long command"),
        cwd=project,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while not (pidfile.exists() and pidfile.read_text().strip()):
            assert time.monotonic() < deadline and proc.poll() is None, proc.stderr
            time.sleep(0.05)
        child = int(pidfile.read_text())
        assert _alive(child)
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    gone_by = time.monotonic() + 2
    while _alive(child) and time.monotonic() < gone_by:
        time.sleep(0.05)
    alive = _alive(child)
    if alive:
        os.kill(child, signal.SIGKILL)
    assert not alive, "the bash tool's child outlived tether"
    assert proc.returncode == 128 + signum, err
    assert "Traceback" not in err
    [file] = session_files(home)
    session = Session.open(file)
    assert not session.problems
    roles = [m["role"] for m in session.build_context().messages]
    assert roles[:2] == ["user", "assistant"]
