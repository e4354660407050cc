"""Helpers for the file-safety tests: real ``tether`` processes under a file-size limit, a
umask, or next to a process holding a session's lock."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from tests.store_helpers import ROOT

LOCK_HOLDER = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.flock(fd, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
"""


def tether_env(home: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "TETHER_DEBUG"}
    env["TETHER_HOME"] = str(home)
    # Under RLIMIT_FSIZE Python's own .pyc writes can be cut short (and renamed into place):
    # never let a limited process write bytecode.
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.update(extra or {})
    return env


def run_limited(
    *args: str,
    home: Path,
    fsize: int | None = None,
    umask: int | None = None,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = 60,
) -> subprocess.CompletedProcess[str]:
    """``python -m tether ARGS`` with ``RLIMIT_FSIZE`` = ``fsize`` (SIGXFSZ ignored, so a write
    past it fails with EFBIG, as on a full disk) and/or the given umask."""

    def prepare() -> None:
        if fsize is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        if umask is not None:
            os.umask(umask)

    preexec: Callable[[], None] | None = prepare if fsize is not None or umask is not None else None
    return subprocess.run(
        [sys.executable, "-m", "tether", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd or ROOT,
        env=tether_env(home, env),
        preexec_fn=preexec,
        timeout=timeout,
    )


def hold_lock(path: Path, seconds: float) -> subprocess.Popen[str]:
    """A process holding an exclusive ``flock`` on ``path`` for ``seconds`` (started when this
    returns)."""
    holder = subprocess.Popen(
        [sys.executable, "-c", LOCK_HOLDER, str(path), str(seconds)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "locked"
    return holder


def one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode != 0, result.stdout
    assert "Traceback" not in result.stderr, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("tether: error:")]
    assert len(errors) == 1, result.stderr
    return errors[0]


def dead_pid() -> int:
    """The pid of a process that has exited (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def mode_of(path: Path) -> int:
    return os.stat(path).st_mode & 0o777
