"""Two processes never change what a session reads (a hostile review's cases, each fixed):
lazy rows stay readable after tether sets a torn tail aside and after the file is renamed;
a file rewritten in place is a clear error, never lines dropped as malformed; broken lines are
dropped in file order as one process drops them; a failed fork or no temporary folder falls
back to one process; no descriptor leaks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tether.core.session.session import Session
from tether.core.storage import jsonl_scan_split


@pytest.fixture
def split_every_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonl_scan_split, "PARALLEL_SCAN_BYTES", 0)
    monkeypatch.setattr(jsonl_scan_split, "can_fork", lambda: True)


def linear_session(path: Path, count: int, text: str = "x" * 200) -> list[bytes]:
    header = {"type": "session", "version": 3, "id": "s1", "timestamp": "2025-01-01T00:00:00.000Z"}
    lines = [json.dumps(header, separators=(",", ":")).encode()]
    parent = None
    for i in range(count):
        entry = {
            "type": "message",
            "id": f"e{i:05d}",
            "parentId": parent,
            "timestamp": "2025-01-01T00:00:01.000Z",
            "message": {"role": "user", "content": f"{i} {text}", "timestamp": 1},
        }
        lines.append(json.dumps(entry, separators=(",", ":")).encode())
        parent = entry["id"]
    path.write_bytes(b"\n".join(lines) + b"\n")
    return lines


@pytest.mark.usefixtures("split_every_file")
def test_append_after_a_torn_tail_keeps_lazy_rows_readable(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    lines = linear_session(path, 400)
    with path.open("ab") as handle:
        handle.write(lines[-1][:-5] + b"x" * 4000)  # a torn last line, longer than an append
    session = Session.open(path)
    table = session.table
    assert table.unloaded(list(range(len(table))))  # the second half stayed in the file
    assistant = {"role": "assistant", "content": [{"type": "text", "text": "ok"}], "timestamp": 2}
    session.append_message(assistant)  # written at once (the session has an assistant now)
    assert path.stat().st_size < session.table.file[3]  # the torn bytes were set aside
    messages = session.build_context().messages
    assert len(messages) == 401


def broken_past_prefix(line: bytes) -> bytes:
    """The line with its prefix intact (the scanner takes it) but invalid JSON further on."""
    return line[:-30] + b'"broken}'


def context_and_problems(path: Path, workers: int) -> tuple[bytes, list[str], int]:

    session = Session.open(path)
    encoded, _ = session.encoded_context(workers=workers)
    return encoded.read(0, encoded.size), [str(p) for p in session.problems], len(session.table)


def test_two_broken_lines_give_the_same_context_problems_on_two_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tether.core.context import parallel

    monkeypatch.setattr(parallel, "can_fork", lambda: True)
    monkeypatch.setattr(parallel, "PARALLEL_ROWS", 100)
    path = tmp_path / "s.jsonl"
    lines = linear_session(path, 2400)
    lines[150] = broken_past_prefix(lines[150])
    lines[2350] = broken_past_prefix(lines[2350])
    path.write_bytes(b"\n".join(lines) + b"\n")
    one = context_and_problems(path, workers=1)
    assert len(one[1]) == 2  # both broken lines found, one after the other
    for _ in range(20):
        assert context_and_problems(path, workers=2) == one


def no_fork() -> int:
    import errno

    raise OSError(errno.EAGAIN, "Resource temporarily unavailable")


@pytest.mark.usefixtures("split_every_file")
def test_a_failed_fork_falls_back_to_one_process_when_opening(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "s.jsonl"
    linear_session(path, 400)
    monkeypatch.setattr("os.fork", no_fork)
    session = Session.open(path)
    assert len(session.table) == 400


@pytest.mark.parametrize("failure", ["fork", "temp-dir"])
def test_encoding_falls_back_to_one_process_when_it_cannot_fork(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: str
) -> None:
    """No fork (EAGAIN) or no usable temporary folder: one process encodes it all."""
    import tempfile

    from tether.core.context import parallel

    monkeypatch.setattr(parallel, "can_fork", lambda: True)
    monkeypatch.setattr(parallel, "PARALLEL_ROWS", 100)
    path = tmp_path / "s.jsonl"
    linear_session(path, 400)
    session = Session.open(path)
    if failure == "fork":
        monkeypatch.setattr("os.fork", no_fork)
    else:
        monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "gone"))  # no such directory
    encoded, _ = session.encoded_context(workers=2)
    assert encoded.message_count == 400


@pytest.mark.usefixtures("split_every_file")
def test_a_file_rewritten_in_place_is_not_read_as_malformed_lines(tmp_path: Path) -> None:
    from tether.core.base.errors import SessionFileError

    path = tmp_path / "s.jsonl"
    linear_session(path, 400)
    session = Session.open(path, readonly=True)
    expected = len(session.table)
    data = path.read_bytes()
    with path.open("r+b") as handle:  # same inode, same size, every line one byte later
        handle.write(b"\n" + data[:-1])
    try:
        messages = session.build_context().messages
    except SessionFileError:
        return  # a clear error is fine
    assert [str(p) for p in session.problems] == []
    assert len(messages) == expected


@pytest.mark.usefixtures("split_every_file")
@pytest.mark.parametrize("workers", [1, 2])
def test_valid_lines_of_other_entries_written_in_place_are_never_encoded(
    tmp_path: Path, workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lines read again by offset (a child's) are parsed in batches; each entry must still be
    the one indexed there, id and type: the context is the one read, or refused."""
    from tether.core.base.errors import SessionFileError
    from tether.core.context import parallel

    monkeypatch.setattr(parallel, "PARALLEL_ROWS", 10)
    monkeypatch.setattr(parallel, "PIECES", 4)
    path = tmp_path / "s.jsonl"
    lines = linear_session(path, 400)
    session = Session.open(path, readonly=True)
    encoded, _ = session.encoded_context(workers=workers)
    before = encoded.read(0, encoded.size)
    swapped = [  # same lengths: other ids, other texts, valid JSON everywhere
        line.replace(b'"id":"e0', b'"id":"f0').replace(b" xxx", b" yyy") for line in lines
    ]
    with path.open("r+b") as handle:  # same inode, same size
        handle.write(b"\n".join(swapped) + b"\n")
    try:
        encoded, _ = session.encoded_context(workers=workers)
    except SessionFileError as exc:
        assert "changed since it was read" in str(exc)
        return
    assert encoded.read(0, encoded.size) == before


def test_encoding_that_meets_a_broken_line_leaks_no_descriptor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc
    import os

    from tether.core.context import parallel

    monkeypatch.setattr(parallel, "can_fork", lambda: True)
    monkeypatch.setattr(parallel, "PARALLEL_ROWS", 100)
    path = tmp_path / "s.jsonl"
    lines = linear_session(path, 2400)
    for row in (300, 900, 1500, 2100):
        lines[row] = broken_past_prefix(lines[row])
    path.write_bytes(b"\n".join(lines) + b"\n")
    Session.open(path).encoded_context(workers=2)  # warm up (imports, caches)
    gc.collect()
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(3):
        Session.open(path).encoded_context(workers=2)
    gc.collect()
    assert len(os.listdir("/proc/self/fd")) == before


@pytest.mark.usefixtures("split_every_file")
def test_a_session_still_reads_after_its_file_is_renamed(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    linear_session(path, 400)
    session = Session.open(path, readonly=True)
    path.rename(tmp_path / "archived.jsonl")  # same inode, same bytes
    assert len(session.build_context().messages) == 400
