"""Lines left in the file never change what a session reads (a hostile review's cases, each
fixed): lazy rows stay readable after tether sets a torn tail aside and after the file is
renamed; a file rewritten in place is a clear error, never lines dropped as malformed; broken
lines are dropped in file order, the fast way as the reference way; no descriptor leaks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tether.builtin_plugins.storage.jsonl.context.batches import encode_context
from tether.builtin_plugins.storage.jsonl.scan import file_scan
from tether.core.session.session import Session


@pytest.fixture
def lines_left(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(file_scan, "LINES_LEFT_BYTES", 0)


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


@pytest.mark.usefixtures("lines_left")
def test_append_after_a_torn_tail_keeps_lazy_rows_readable(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    lines = linear_session(path, 400)
    with path.open("ab") as handle:
        handle.write(lines[-1][:-5] + b"x" * 4000)  # a torn last line, longer than an append
    session = Session.open(path)
    table = session.table
    assert table.unloaded(list(range(len(table))))  # the lines stayed in the file
    assistant = {"role": "assistant", "content": [{"type": "text", "text": "ok"}], "timestamp": 2}
    session.append_message(assistant)  # written at once (the session has an assistant now)
    assert path.stat().st_size < session.table.file[3]  # the torn bytes were set aside
    messages = session.build_context().messages
    assert len(messages) == 401


def broken_past_prefix(line: bytes) -> bytes:
    """The line with its prefix intact (the scanner takes it) but invalid JSON further on."""
    return line[:-30] + b'"broken}'


def context_and_problems(path: Path, fast: bool) -> tuple[bytes, list[str], int]:
    session = Session.open(path)
    if not fast:  # a store without context_batches: the kernel's reference entries
        session._store = type("NoBatches", (), {})()
    encoded, _ = encode_context(session, session.leaf_id)
    return encoded.read(0, encoded.size), [str(p) for p in session.problems], len(session.table)


def test_two_broken_lines_give_the_same_context_problems_fast_and_reference(
    tmp_path: Path,
) -> None:
    path = tmp_path / "s.jsonl"
    lines = linear_session(path, 2400)
    lines[150] = broken_past_prefix(lines[150])
    lines[2350] = broken_past_prefix(lines[2350])
    path.write_bytes(b"\n".join(lines) + b"\n")
    one = context_and_problems(path, fast=False)
    assert len(one[1]) == 2  # both broken lines found, one after the other
    assert context_and_problems(path, fast=True) == one


@pytest.mark.usefixtures("lines_left")
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


@pytest.mark.usefixtures("lines_left")
def test_valid_lines_of_other_entries_written_in_place_are_never_encoded(
    tmp_path: Path,
) -> None:
    """Lines read again by offset are parsed in batches; each entry must still be the one
    indexed there, id and type: the context is the one read, or refused."""
    from tether.core.base.errors import SessionFileError

    path = tmp_path / "s.jsonl"
    lines = linear_session(path, 400)
    session = Session.open(path, readonly=True)
    encoded, _ = encode_context(session, session.leaf_id)
    before = encoded.read(0, encoded.size)
    swapped = [  # same lengths: other ids, other texts, valid JSON everywhere
        line.replace(b'"id":"e0', b'"id":"f0').replace(b" xxx", b" yyy") for line in lines
    ]
    with path.open("r+b") as handle:  # same inode, same size
        handle.write(b"\n".join(swapped) + b"\n")
    try:
        encoded, _ = encode_context(session, session.leaf_id)
    except SessionFileError as exc:
        assert "changed since it was read" in str(exc)
        return
    assert encoded.read(0, encoded.size) == before


def test_encoding_that_meets_a_broken_line_leaks_no_descriptor(tmp_path: Path) -> None:
    import gc
    import os

    path = tmp_path / "s.jsonl"
    lines = linear_session(path, 2400)
    for row in (300, 900, 1500, 2100):
        lines[row] = broken_past_prefix(lines[row])
    path.write_bytes(b"\n".join(lines) + b"\n")
    session = Session.open(path)
    encode_context(session, session.leaf_id)  # warm up (imports, caches)
    gc.collect()
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(3):
        session = Session.open(path)
        encode_context(session, session.leaf_id)
    gc.collect()
    assert len(os.listdir("/proc/self/fd")) == before


@pytest.mark.usefixtures("lines_left")
def test_a_session_still_reads_after_its_file_is_renamed(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    linear_session(path, 400)
    session = Session.open(path, readonly=True)
    path.rename(tmp_path / "archived.jsonl")  # same inode, same bytes
    assert len(session.build_context().messages) == 400
