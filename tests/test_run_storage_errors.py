"""Storage errors during ``tether run`` (issue 7 item 10), with real subprocesses: the session
file deleted mid-run, a session folder name too long for the filesystem, a full disk
(``RLIMIT_FSIZE``). Each is one ``FILE: cannot save the session: …`` line and a non-zero
exit — never "model call failed" — and the reply that could not be saved is printed."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.harness_helpers import NO_THIRD_PARTY, REPO, session_files

REPLY = "The final answer, which must reach the user even if it cannot be saved. " * 3


def _tether(
    home: Path, cwd: Path, *args: str, script: list[Any] | None = None, **popen: Any
) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "TETHER_HOME": str(home),
        "TETHER_FSYNC": "0",
        "PYTHONPATH": str(REPO),
        **NO_THIRD_PARTY,
    }
    if script is not None:
        env["TETHER_FAUX_SCRIPT"] = json.dumps(script)
    if "preexec_fn" in popen:  # a file-size limit: no bytecode write may be cut short
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "tether", *args],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        **popen,
    )


def _bash(command: str) -> dict[str, Any]:
    return {"toolCalls": [{"name": "bash", "arguments": {"command": command}, "id": "b1"}]}


def _one_storage_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    [line] = lines
    assert line.startswith("tether: error: ") and "cannot save the session" in line, line
    assert "model call failed" not in line and "Traceback" not in stderr
    return line


def test_session_deleted_by_a_tool_is_a_storage_error(tmp_path: Path):
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    script = [_bash('rm "$TETHER_HOME"/sessions/*/*.jsonl'), REPLY]
    done = _tether(home, project, "run", "--provider", "faux", "clean up", script=script)
    assert done.returncode == 1
    line = _one_storage_line(done.stderr)
    folder = home / "sessions"
    assert str(folder) in line and ".jsonl" in line  # names the file
    assert session_files(home) == []  # not re-created as a partial session


def test_session_deleted_while_the_reply_streams_prints_the_reply(tmp_path: Path):
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    script = [
        # the file goes 0.8 s after the tool ran: after its result is saved, while the reply
        # streams (about 2.5 s)
        _bash('(sleep 0.8; rm "$TETHER_HOME"/sessions/*/*.jsonl) >/dev/null 2>&1 &'),
        {"text": REPLY, "chunkDelayMs": 130},
    ]
    done = _tether(home, project, "run", "--provider", "faux", "go", script=script)
    assert done.returncode == 1
    assert done.stdout == REPLY + "\n"  # nothing the model said is lost
    _one_storage_line(done.stderr)


def test_session_folder_name_too_long(tmp_path: Path):
    home = tmp_path / "home"
    project = tmp_path.joinpath(*["d" * 60] * 5)  # the session folder name joins them: > 255
    project.mkdir(parents=True)
    done = _tether(home, project, "run", "--provider", "faux", "hello")
    assert done.returncode == 1
    # the session's lease is taken before the model is called: nothing is spent, nothing lost
    assert done.stdout == ""
    line = _one_storage_line(done.stderr)
    assert "File name too long" in line and str(home / "sessions") in line
    # the same for --session with a path the filesystem cannot hold: one line, no traceback
    too_long = tmp_path / ("x" * 300) / "s.jsonl"
    opened = _tether(home, tmp_path, "run", "--provider", "faux", "--session", str(too_long), "hi")
    assert opened.returncode != 0
    [error] = opened.stderr.splitlines()
    assert error.startswith("tether: error: ") and "File name too long" in error
    assert "internal error" not in error


def _small_file_limit() -> None:
    """In the child: files may not grow past 2 KB; writing more fails with EFBIG."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def test_full_disk_prints_the_reply_and_says_the_session_was_not_saved(tmp_path: Path):
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    long_reply = "word " * 1000  # 5 KB: more than the file may hold
    done = _tether(
        home,
        project,
        "run",
        "--provider",
        "faux",
        "answer at length",
        script=[long_reply],
        preexec_fn=_small_file_limit,
    )
    assert done.returncode == 1
    assert done.stdout == long_reply + "\n"
    line = _one_storage_line(done.stderr)
    assert "File too large" in line
