"""Bad input: one clear error line (file, line, what was expected) or a documented recovery,
and never a lost or overwritten byte."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.cli_in_process import run_in_process
from tests.store_helpers import (
    GEN,
    assistant_message,
    copy_fixture,
    run_tether,
    user_message,
)
from tether.core.base.errors import SessionFileError, TetherError
from tether.core.session.session import Session


def _one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("tether: error:")]
    assert len(errors) == 1, result.stderr
    return errors[0]


def test_missing_path(tmp_path: Path) -> None:
    missing = tmp_path / "nope.jsonl"
    for command in ("show", "tree", "export", "clone", "repair"):
        run = run_tether if command == "show" else run_in_process  # one real process
        line = _one_error_line(run("session", command, str(missing)))
        assert line == f"tether: error: {missing}: no such session file"
    with pytest.raises(SessionFileError, match="no such session file"):
        Session.open(missing)
    assert Session.open(missing, create=True).file == missing and not missing.exists()


def test_a_closed_standard_output_is_one_line(tmp_path: Path) -> None:
    """Started with descriptor 1 closed (``>&-``): one line, as a shell's ``echo`` says it,
    not a traceback at exit."""
    import os
    import sys

    file = copy_fixture("g02-linear-text.jsonl", tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "tether", "session", "context", str(file), "--json"],
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: os.close(1),
        env={k: v for k, v in os.environ.items() if k != "TETHER_DEBUG"},
        timeout=60,
    )
    line = _one_error_line(result)
    assert line.startswith("tether: error: standard output is closed")


def test_a_non_blocking_standard_output_gets_every_byte(tmp_path: Path) -> None:
    """A pipe another process made non-blocking, read slowly: the whole output arrives (it
    ended short, with exit 0, before), and the pipe is non-blocking again afterwards."""
    import os
    import select
    import sys
    import time

    file = copy_fixture("g31-mixed-long.jsonl", tmp_path)
    command = [sys.executable, "-m", "tether", "session", "context", str(file), "--json"]
    expected = subprocess.run(command, capture_output=True, timeout=60, check=True).stdout
    assert len(expected) > 4 * 65536  # more than a pipe holds
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    os.set_blocking(read_end, False)
    try:
        child = subprocess.Popen(command, stdout=write_end, stderr=subprocess.PIPE)
        time.sleep(1.0)  # the pipe fills while nobody reads
        chunks = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            readable, _, _ = select.select([read_end], [], [], 0.2)
            if readable:
                chunks.append(os.read(read_end, 1 << 16))
            elif child.poll() is not None:
                break  # it ended and the pipe is empty
        assert child.wait(timeout=10) == 0
        assert child.stderr is not None and child.stderr.read() == b""
        assert b"".join(chunks) == expected
        assert not os.get_blocking(write_end)  # as it was given
    finally:
        os.close(read_end)
        os.close(write_end)


def test_a_directory(tmp_path: Path) -> None:
    line = _one_error_line(run_tether("session", "tree", str(tmp_path)))
    assert line == f"tether: error: {tmp_path}: is a directory, not a session file"


def test_an_empty_file_is_a_new_session_and_nothing_is_lost(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"  \n\n")
    line = _one_error_line(run_tether("session", "show", str(path)))
    assert line == f"tether: error: {path}: empty file (no session header)"
    session = Session.open(path)  # documented recovery: a fresh session in that file
    session.append_message(assistant_message("first"))
    records = [json.loads(x) for x in path.read_bytes().split(b"\n") if x.strip()]
    assert [r["type"] for r in records] == ["session", "message"]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"\x00\x9f\x92\x96binary\xff\xfe garbage\n\x01\x02\n", "invalid JSON"),
        (b'{"type":"message","id":"a","parentId":null,"timestamp":"t"}\n', '"type" is "message"'),
        (b'{"type":"session","version":3}\n', '"id" is not a string'),
        (b"[1, 2, 3]\n", "a JSON list, not an object"),
    ],
)
def test_a_bad_first_line_is_an_error_and_repair_keeps_everything(
    tmp_path: Path, content: bytes, reason: str
) -> None:
    path = tmp_path / "bad.jsonl"
    tail = (GEN / "g01-tiny-linear.jsonl").read_bytes().split(b"\n", 1)[1]  # entries, no header
    path.write_bytes(content + tail)
    line = _one_error_line(run_in_process("session", "show", str(path)))
    assert line.startswith(f"tether: error: {path}:1: not a tether/pi session header (")
    assert reason in line
    assert path.read_bytes() == content + tail  # never overwritten
    result = run_tether("session", "repair", str(path), "--cwd", "/work")
    assert result.returncode == 0, result.stderr
    backups = list(tmp_path.glob("bad.jsonl.bak-*"))
    assert [b.read_bytes() for b in backups] == [content + tail]
    repaired = Session.open(path, readonly=True)
    assert repaired.header["cwd"] == "/work" and repaired.problems == []
    assert len(repaired) == len(Session.open(GEN / "g01-tiny-linear.jsonl", readonly=True)) + (
        1 if b'"id":"a"' in content else 0
    )
    damaged = list(tmp_path.glob("bad.jsonl.damaged-*"))
    kept = path.read_bytes()
    for raw in content.split(b"\n"):
        if raw.strip():
            assert raw in kept or any(raw in d.read_bytes() for d in damaged)


def test_malformed_middle_line_is_reported_and_repaired(tmp_path: Path) -> None:
    path = copy_fixture("e37-malformed-lines.jsonl", tmp_path)
    before = path.read_bytes()
    shown = run_in_process("session", "show", str(path), "--json")
    assert shown.returncode == 0, shown.stderr
    problems = json.loads(shown.stdout)["problems"]
    assert [p["line"] for p in problems] == [5, 15, 31, 69]
    context_before = Session.open(path, readonly=True).build_context().messages
    result = run_tether("session", "repair", str(path))
    assert result.returncode == 0 and "moved 4 damaged line(s) (5, 15, 31, 69)" in result.stdout
    (sidecar,) = tmp_path.glob("*.damaged-*")
    bad_lines = [before.split(b"\n")[n - 1] for n in (5, 15, 31, 69)]
    assert sidecar.read_bytes() == b"".join(line + b"\n" for line in bad_lines)
    good = [x for x in before.split(b"\n") if x.strip() and x not in bad_lines]
    assert path.read_bytes() == b"".join(x + b"\n" for x in good)  # every readable byte kept
    repaired = Session.open(path, readonly=True)
    assert repaired.problems == [] and repaired.build_context().messages == context_before
    again = run_in_process("session", "repair", str(path))
    assert again.stdout.strip().endswith("nothing to repair")


def test_torn_last_line_is_reported_and_set_aside(tmp_path: Path) -> None:
    path = copy_fixture("g01-tiny-linear.jsonl", tmp_path)
    path.write_bytes(path.read_bytes() + b'{"type":"message","id":"abc')
    shown = json.loads(run_in_process("session", "show", str(path), "--json").stdout)
    assert [(p["line"], p["kind"]) for p in shown["problems"]] == [(12, "torn")]
    result = run_tether("session", "repair", str(path))
    assert result.returncode == 0, result.stderr
    (sidecar,) = tmp_path.glob("*.damaged-*")
    assert sidecar.read_bytes() == b'{"type":"message","id":"abc\n'
    assert Session.open(path).problems == []


def test_unknown_entry_types_are_kept_and_ignored_by_the_context(tmp_path: Path) -> None:
    path = copy_fixture("g01-tiny-linear.jsonl", tmp_path)
    session = Session.open(path)
    leaf = session.leaf_id
    odd = {
        "type": "future_kind",
        "id": "f0000001",
        "parentId": leaf,
        "timestamp": "2025-02-01T00:00:00.000Z",
        "payload": {"k": [1, 2.5]},
    }
    raw = json.dumps(odd, separators=(",", ":")).encode()
    path.write_bytes(path.read_bytes() + raw + b"\n")
    session = Session.open(path)
    assert session.leaf_id == "f0000001"
    assert session.build_context().messages == Session.open(path).build_context(leaf).messages
    session.append_message(user_message("after the unknown entry"))
    assert raw + b"\n" in path.read_bytes()
    tree = json.loads(run_in_process("session", "tree", str(path), "--json").stdout)
    assert tree["children"][leaf] == ["f0000001"]


def test_parent_cycles_do_not_hang(tmp_path: Path) -> None:
    path = copy_fixture("g01-tiny-linear.jsonl", tmp_path)
    lines = path.read_bytes().split(b"\n")
    first = json.loads(lines[1])
    second = json.loads(lines[2])
    first["parentId"] = second["id"]  # first <-> second
    lines[1] = json.dumps(first, separators=(",", ":")).encode()
    path.write_bytes(b"\n".join(lines))
    result = run_tether("session", "tree", str(path), "--json", timeout=30)
    assert result.returncode == 0 and "cycle" in result.stderr
    session = Session.open(path, readonly=True)
    branch = session.branch_ids()
    assert len(branch) == len(set(branch)) and branch[0] == first["id"]
    assert session.build_context().messages


def test_duplicate_ids_later_wins_like_pi(tmp_path: Path) -> None:
    path = copy_fixture("g01-tiny-linear.jsonl", tmp_path)
    lines = path.read_bytes().split(b"\n")
    duplicate = json.loads(lines[3])
    duplicate["message"] = user_message("the later copy")
    path.write_bytes(path.read_bytes() + json.dumps(duplicate).encode() + b"\n")
    session = Session.open(path, readonly=True)
    assert session.get_entry(duplicate["id"])["message"]["content"][0]["text"] == "the later copy"
    assert run_in_process("session", "tree", str(path), "--json").returncode == 0
    assert run_in_process("session", "show", str(path)).returncode == 0


def test_unknown_leaf_ids(tmp_path: Path) -> None:
    path = GEN / "g02-linear-text.jsonl"
    session = Session.open(path, readonly=True)
    # pi's buildSessionContext falls back to the last entry for an unknown leaf
    assert session.build_context("nope").messages == session.build_context().messages
    with pytest.raises(TetherError, match="Entry nope not found"):
        session.branch("nope")
    with pytest.raises(TetherError, match="Entry nope not found"):
        session.navigate("nope")
    line = _one_error_line(run_tether("session", "clone", str(path), "--at", "nope"))
    assert line == f"tether: error: {path}: --at: no entry with id 'nope'"
    line = _one_error_line(run_in_process("session", "fork", str(path), "--before", "nope"))
    assert line == f"tether: error: {path}: --before: no entry with id 'nope'"


def _make_immutable(path: Path) -> bool:
    chattr = shutil.which("chattr")
    if chattr is None:
        return False
    return subprocess.run([chattr, "+i", str(path)], capture_output=True).returncode == 0


def test_a_file_that_cannot_be_written(tmp_path: Path) -> None:
    # Tests run as root, which chmod does not stop. Two things that really fail for root:
    # an immutable file (chattr +i, when the filesystem allows it) and a session folder
    # whose path runs through a regular file (mkdir fails with ENOTDIR).
    path = copy_fixture("g01-tiny-linear.jsonl", tmp_path)
    path.write_bytes(path.read_bytes() + b'{"type":"mess')  # a torn tail: repair must write
    before = path.read_bytes()
    session = Session.open(path)
    if _make_immutable(path):
        try:
            with pytest.raises(SessionFileError, match="cannot open for writing"):
                session.append_message(assistant_message("x"))
            line = _one_error_line(run_tether("session", "repair", str(path)))
            assert str(path) in line
        finally:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        assert path.read_bytes() == before
        session.append_message(user_message("later, once writable"))  # pending entries go out
        complete = before[: before.rindex(b"\n") + 1]
        after = path.read_bytes()
        assert after.startswith(complete) and b"later, once writable" in after
        assert [json.loads(x)["type"] for x in after[len(complete) :].splitlines()] == [
            "message"
        ] * 2
        (torn,) = tmp_path.glob("*.torn-*")
        assert torn.read_bytes() == b'{"type":"mess'
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where a folder should be")
    fresh = Session.create("/proj", blocker / "sessions")
    with pytest.raises(SessionFileError, match="cannot create the session folder"):
        fresh.append_message(assistant_message("x"))
    assert blocker.read_text() == "a file where a folder should be"


def test_a_custom_entrys_parent_with_a_byte_that_is_not_utf8_is_an_orphan_not_a_crash(
    tmp_path: Path,
) -> None:
    """Read as pi reads it (bad bytes → U+FFFD): a parent that no entry has."""
    path = copy_fixture("g01-tiny-linear.jsonl", tmp_path)
    leaf = Session.open(path).leaf_id
    custom = {"type": "custom", "customType": "ext", "data": {}, "id": "c1", "parentId": leaf}
    line = json.dumps({**custom, "timestamp": "2025-02-01T00:00:00.000Z"}, separators=(",", ":"))
    line = line.replace(f'"parentId":"{leaf}"', f'"parentId":"{leaf}\\udcff"')  # a placeholder
    raw = line.encode().replace(b"\\udcff", b"\xff")
    path.write_bytes(path.read_bytes() + raw + b"\n")
    session = Session.open(path)
    assert session.table.parents[-1] == f"{leaf}\ufffd"
    result = run_tether("session", "context", str(path), "--json")
    assert result.returncode == 0, result.stderr
    assert "internal error" not in result.stderr
