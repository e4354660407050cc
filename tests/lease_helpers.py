"""Helpers for the session-lease tests: real ``tether`` processes on one session file.

A run lasts long enough to overlap with others through a scripted ``faux`` tool call to
``bash sleep`` (``TETHER_FAUX_SCRIPT``).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

from tests.cli_in_process import run_in_process
from tests.store_helpers import ROOT
from tether.core.session.session import Session

GEN = ROOT / "tests" / "fixtures" / "pi" / "gen"


def tether_env(tmp_path: Path, sleep: float | str | None = None) -> dict[str, str]:
    """Home in ``tmp_path/home``, no third-party plugin; ``sleep``: runs call ``bash sleep``
    (seconds, or a file: ``bash`` waits until it exists, see :func:`release`)."""
    env = dict(os.environ)
    env.pop("TETHER_DEBUG", None)
    env.update(
        TETHER_HOME=str(tmp_path / "home"),
        TETHER_FSYNC="0",
        TETHER_LOAD_PLUGINS="",
        PYTHONPATH=str(ROOT),
    )
    if sleep is not None:  # one tool call to bash, then an answer: the run spans the sleep
        command = f"sleep {sleep}"
        if isinstance(sleep, str):
            command = f"until [ -e {shlex.quote(sleep)} ]; do sleep 0.01; done"
        call = {"name": "bash", "arguments": {"command": command}}
        env["TETHER_FAUX_SCRIPT"] = json.dumps([{"toolCalls": [call]}, "done"])
    return env


def start_tether(
    tmp_path: Path, *args: str, sleep: float | str | None = None
) -> subprocess.Popen[str]:
    """``tether ARGS`` started in the background (see :func:`tether_env`)."""
    return subprocess.Popen(
        [sys.executable, "-m", "tether", *args],
        cwd=tmp_path,
        env=tether_env(tmp_path, sleep),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # the test can kill the holder's bash child too
    )


def release(tmp_path: Path) -> str:
    """A ``sleep`` for :func:`tether_env` that lasts until :func:`let_go` is called."""
    return str(tmp_path / "release-the-holder")


def let_go(tmp_path: Path) -> None:
    Path(release(tmp_path)).touch()


def read_until(stream: IO[str] | None, text: str) -> str:
    """Lines of ``stream`` up to the first one that contains ``text`` (or its end)."""
    assert stream is not None
    read = ""
    while line := stream.readline():
        read += line
        if text in line:
            break
    return read


def tether(tmp_path: Path, *args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    """``tether ARGS`` run to its end."""
    return subprocess.run(
        [sys.executable, "-m", "tether", *args],
        cwd=tmp_path,
        env=tether_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def run_args(file: Path, prompt: str, *extra: str) -> list[str]:
    return ["run", prompt, "--provider", "faux", "--session", str(file), *extra]


def session_file(tmp_path: Path, fixture: str = "g02-linear-text.jsonl") -> Path:
    (tmp_path / "home").mkdir(exist_ok=True)
    target = tmp_path / "s.jsonl"
    shutil.copyfile(GEN / fixture, target)
    return target


def lock_path(file: Path) -> Path:
    """Where the lease of ``file`` lives: ``<file>.lock`` next to it."""
    return file.with_name(file.name + ".lock")


def wait_for_holder(file: Path, pid: int, timeout: float = 20) -> None:
    """Until the lock file names ``pid`` as its holder."""
    deadline = time.monotonic() + timeout
    lock = lock_path(file)
    while time.monotonic() < deadline:
        try:
            if json.loads(lock.read_text()).get("pid") == pid:
                return
        except (OSError, ValueError):
            pass
        time.sleep(0.02)
    raise AssertionError(f"pid {pid} never took the lease of {file}")


def _read(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """A read-only ``tether ARGS`` in this process (readers take no lease; the writers the
    tests race are the real processes)."""
    return run_in_process(*args, home=tmp_path / "home", cwd=tmp_path)


def tree_json(tmp_path: Path, file: Path) -> dict[str, Any]:
    result = _read(tmp_path, "session", "tree", str(file), "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def context_json(tmp_path: Path, file: Path) -> dict[str, Any]:
    result = _read(tmp_path, "session", "context", str(file), "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def user_texts(file: Path, ids: list[str]) -> list[str]:
    """The user prompts among the entries ``ids``, in that order."""
    by_id = {e.get("id"): e for e in map(json.loads, file.read_text().splitlines()[1:])}
    texts = []
    for entry_id in ids:
        message = by_id[entry_id].get("message") or {}
        if message.get("role") == "user":
            content = message.get("content")
            texts.append(content if isinstance(content, str) else content[0]["text"])
    return texts


def assert_clean(file: Path) -> None:
    records = [json.loads(line) for line in file.read_text().splitlines() if line.strip()]
    assert [r["type"] for r in records].count("session") == 1
    assert records[0]["type"] == "session"
    assert Session.open(file, readonly=True).problems == []


def descendants(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in map(int, children):
            found += [child, *descendants(child)]
    return found


def kill_tree(proc: subprocess.Popen[str]) -> None:
    """SIGKILL ``proc`` and every process it started (the bash tool's ``sleep``)."""
    for pid in [*descendants(proc.pid), proc.pid]:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.communicate(timeout=30)


def finish(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err


def lease_elsewhere(file: Path) -> str:
    """Take the lease of ``file`` in another process, as a library user would; its error or
    ``"ok"``."""
    code = (
        "import sys\nfrom tether.builtin_plugins.storage.jsonl.files.lease import SessionLease\n"
        "try:\n    SessionLease(sys.argv[1]).acquire().release()\n"
        "except Exception as exc:\n    print(exc)\nelse:\n    print('ok')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-c", code, str(file)], capture_output=True, text=True, env=env
    )
    return result.stdout.strip()
