"""The ``bash`` tool with real subprocesses: exit codes, timeout, abort of a whole process
group, tail truncation with the full output in a temp file."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from tests.agent_fakes import execute_tool
from tether.builtin_plugins.tools.bash.tool import make_bash_tool
from tether.hookspecs.abort import AbortSignal
from tether.hookspecs.tools import ToolContext, ToolResult


def _run(tmp_path: Path, command: str, **extra: object) -> ToolResult:
    ctx = ToolContext(cwd=str(tmp_path))
    return execute_tool(make_bash_tool(), "call-1", {"command": command, **extra}, ctx)


def _text(result: ToolResult) -> str:
    return result.content[0]["text"]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    if stat.exists():  # a zombie nobody reaped is dead too
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    return True


def test_output_of_stdout_and_stderr_in_the_project_directory(tmp_path: Path) -> None:
    (tmp_path / "marker.txt").write_text("x")
    result = _run(tmp_path, "ls; echo to-stderr >&2")
    assert not result.is_error
    assert _text(result) == "marker.txt\nto-stderr\n"
    assert result.details is None


def test_no_output_and_nonzero_exit_code(tmp_path: Path) -> None:
    assert _text(_run(tmp_path, "true")) == "(no output)"
    failed = _run(tmp_path, "echo partial; exit 3")
    assert failed.is_error
    assert _text(failed) == "partial\n\n\nCommand exited with code 3"
    silent = _run(tmp_path, "exit 4")
    assert _text(silent) == "(no output)\n\nCommand exited with code 4"


def test_timeout_kills_the_command(tmp_path: Path) -> None:
    started = time.monotonic()
    result = _run(tmp_path, "echo begun; sleep 30", timeout=0.5)
    assert time.monotonic() - started < 10
    assert result.is_error
    assert _text(result) == "begun\n\n\nCommand timed out after 0.5 seconds"


def test_abort_kills_the_whole_process_group(tmp_path: Path) -> None:
    pid_file = tmp_path / "grandchild.pid"
    signal = AbortSignal()
    ctx = ToolContext(cwd=str(tmp_path), signal=signal)
    # The subshell's background sleep is a grandchild of the tool's process.
    command = f"(sleep 300 & echo $! > {pid_file.name}; wait); echo never"
    box: dict[str, ToolResult] = {}
    worker = threading.Thread(
        target=lambda: box.update(r=execute_tool(make_bash_tool(), "c", {"command": command}, ctx))
    )
    worker.start()
    deadline = time.monotonic() + 10
    while not (pid_file.exists() and pid_file.read_text().strip()) and time.monotonic() < deadline:
        time.sleep(0.02)
    grandchild = int(pid_file.read_text())
    assert _alive(grandchild)
    signal.abort()
    worker.join(10)
    assert not worker.is_alive()
    assert box["r"].is_error and _text(box["r"]) == "Command aborted"
    deadline = time.monotonic() + 5
    while _alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not _alive(grandchild)


def test_already_aborted_signal_runs_nothing(tmp_path: Path) -> None:
    signal = AbortSignal()
    signal.abort()
    ctx = ToolContext(cwd=str(tmp_path), signal=signal)
    result = execute_tool(make_bash_tool(), "c", {"command": "touch ran"}, ctx)
    assert result.is_error and _text(result) == "Command aborted"
    assert not (tmp_path / "ran").exists()


def test_line_truncation_keeps_the_tail_and_the_full_output_file(tmp_path: Path) -> None:
    result = _run(tmp_path, "seq 1 3000")
    full = "".join(f"{i}\n" for i in range(1, 3001))
    path = result.details["fullOutputPath"]
    text = _text(result)
    assert text.endswith(f"\n\n[Showing lines 1002-3001 of 3001. Full output: {path}]")
    assert text.startswith("1002\n1003\n")
    assert Path(path).read_text() == full
    assert result.details["truncation"]["truncatedBy"] == "lines"
    assert result.details["truncation"]["totalLines"] == 3001
    os.unlink(path)


def test_one_huge_line_shows_its_last_bytes(tmp_path: Path) -> None:
    result = _run(tmp_path, "head -c 100000 /dev/zero | tr '\\0' x")
    path = result.details["fullOutputPath"]
    assert _text(result) == "x" * 51200 + (
        f"\n\n[Showing last 50.0KB of line 1 (line is 97.7KB). Full output: {path}]"
    )
    assert Path(path).read_bytes() == b"x" * 100000
    os.unlink(path)


def test_byte_truncation_notice_and_error_keeps_details(tmp_path: Path) -> None:
    # 600 lines of 100 bytes: under the line limit, over 50 KB.
    result = _run(tmp_path, "for i in $(seq 1 600); do printf '%099d\\n' $i; done; exit 2")
    assert result.is_error
    path = result.details["fullOutputPath"]
    cut = result.details["truncation"]
    assert cut["truncatedBy"] == "bytes"
    first = cut["totalLines"] - cut["outputLines"] + 1
    assert _text(result).endswith(
        f"\n\n[Showing lines {first}-601 of 601 (50.0KB limit). Full output: {path}]"
        "\n\nCommand exited with code 2"
    )
    assert len(Path(path).read_bytes()) == 60000
    os.unlink(path)


def test_progress_updates_and_missing_working_directory(tmp_path: Path) -> None:
    updates: list[ToolResult] = []
    ctx = ToolContext(cwd=str(tmp_path), on_update=updates.append)
    execute_tool(make_bash_tool(), "c", {"command": "echo one; sleep 0.3; echo two"}, ctx)
    assert updates[0].content == []
    assert any("one" in u.content[0]["text"] for u in updates[1:])
    gone = ToolContext(cwd=str(tmp_path / "missing"))
    result = execute_tool(make_bash_tool(), "c", {"command": "true"}, gone)
    assert result.is_error and _text(result).startswith("Working directory does not exist")
