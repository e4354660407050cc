"""Crashes and concurrency with real processes: SIGKILL mid-append, two writers on one file."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.store_helpers import ROOT, assistant_message
from tether.core.session.session import Session

WRITER = ROOT / "tests" / "store_writer.py"


def _new_session_file(tmp_path: Path) -> Path:
    session = Session.create("/proj", tmp_path)
    session.append_message(assistant_message("ready"))  # on disk from now on
    assert session.file is not None
    return session.file


def _writer(path: Path, count: int, tag: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(WRITER), str(path), str(count), tag],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, **env},
    )


def test_sigkill_mid_append_loses_no_reported_entry(tmp_path: Path) -> None:
    path = _new_session_file(tmp_path)
    writer = _writer(path, 1000, "killed")
    assert writer.stdout is not None
    reported = []
    for line in writer.stdout:
        reported.append(line.strip())
        if len(reported) == 400:
            writer.send_signal(signal.SIGKILL)
            break
    reported.extend(line.strip() for line in writer.stdout)
    writer.wait(timeout=30)
    assert writer.returncode == -signal.SIGKILL
    assert 400 <= len(reported) < 1000
    session = Session.open(path)
    missing = [entry_id for entry_id in reported if not session.has_entry(entry_id)]
    assert missing == []
    assert {p.kind for p in session.problems} <= {"torn"}  # at most the line being written
    branch = [e["id"] for e in session.get_branch()]
    start = branch.index(reported[0])
    # in order and contiguous; the writer may have appended one more entry before it could
    # print its id when the SIGKILL landed
    assert branch[start : start + len(reported)] == reported
    assert len(branch) - (start + len(reported)) <= 1
    session.append_message(assistant_message("recovered"))  # sets a torn tail aside
    reloaded = Session.open(path)
    assert reloaded.problems == []
    assert reloaded.get_entry(reloaded.leaf_id)["message"]["content"][0]["text"] == "recovered"


def test_two_processes_appending_never_interleave(tmp_path: Path) -> None:
    path = _new_session_file(tmp_path)
    blind = {"TETHER_FSYNC": "0", "STORE_WRITER_BLIND": "1"}  # the lock alone keeps lines whole
    writers = [_writer(path, 1000, tag, **blind) for tag in ("alpha", "beta")]
    outputs = [w.communicate(timeout=120) for w in writers]
    for writer, (_, err) in zip(writers, outputs, strict=True):
        assert writer.returncode == 0, err
    reported = [out.split() for out, _ in outputs]
    lines = path.read_bytes().split(b"\n")
    assert lines[-1] == b""
    records = [json.loads(line) for line in lines[:-1]]  # every line is intact JSON
    assert len(records) == 2 + 2000
    assert [r["type"] for r in records].count("session") == 1
    by_tag: dict[str, list[str]] = {"alpha": [], "beta": []}
    for record in records[2:]:
        by_tag[record["message"]["content"][0]["text"].split()[0]].append(record["id"])
    assert by_tag["alpha"] == reported[0] and by_tag["beta"] == reported[1]
    session = Session.open(path)
    assert session.problems == [] and len(session) == 2001
