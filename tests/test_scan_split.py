"""A session file indexed on two processes (its second half by a forked child, whose lines stay
in the file until needed) reads exactly as one indexed by one process: the index, the
problems, the context, the tree, names and labels, on every fixture; a line broken past its
prefix in the second half is found when read; a file replaced meanwhile is one clear error."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tether.core.base.errors import SessionFileError
from tether.core.session.session import Session
from tether.core.storage import jsonl_scan_split
from tether.core.storage.jsonl_scan import scan_stream

FIXTURES = Path(__file__).resolve().parent / "fixtures"
FILES = sorted(p for p in FIXTURES.rglob("*.jsonl") if p.stat().st_size > 0)


def index_of(scanned: Any) -> tuple[Any, ...]:
    table = scanned.table
    problems = [(p.line, p.kind, p.message) for p in table.problems]
    columns = (table.ids, table.parents, table.types, list(table.linenos), list(table.offsets))
    head = (scanned.header, scanned.header_lineno, scanned.header_error)
    return (*head, scanned.ends_with_newline, *columns, problems)


def what_it_reads(session: Session) -> tuple[Any, ...]:
    table = session.table
    rows = range(len(table))
    context = session.build_context()
    return (
        context.messages,
        context.thinking_level,
        context.model,
        session.tree_json() if hasattr(session, "tree_json") else None,
        session.labels(),
        session.session_name,
        [table.stamp(r) for r in rows],
        [table.role(r) for r in rows],
        [table.entry(r) for r in rows],
        [str(p) for p in session.problems],
    )


@pytest.fixture
def split_every_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonl_scan_split, "PARALLEL_SCAN_BYTES", 0)
    monkeypatch.setattr(jsonl_scan_split, "can_fork", lambda: True)


@pytest.mark.usefixtures("split_every_file")
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_two_halves_index_and_read_as_one(path: Path) -> None:
    with path.open("rb") as handle:
        one = scan_stream(handle)
    with path.open("rb") as handle:
        two = jsonl_scan_split._scan_halves(handle)
    if two is None:  # too small to cut, or the header is past the middle
        return
    assert index_of(two[0]) == index_of(one[0])
    assert two[1] == one[1]
    lazy = Session.open(path, readonly=True)
    try:
        expected = what_it_reads(_one_process(path))
    except SessionFileError:
        return
    assert what_it_reads(lazy) == expected


def _one_process(path: Path) -> Session:
    saved = jsonl_scan_split.PARALLEL_SCAN_BYTES
    jsonl_scan_split.PARALLEL_SCAN_BYTES = 1 << 62
    try:
        return Session.open(path, readonly=True)
    finally:
        jsonl_scan_split.PARALLEL_SCAN_BYTES = saved


def unloaded(session: Session) -> int:
    """How many rows' lines are still only in the file."""
    table = session.table
    return len(table.unloaded(list(range(len(table)))))


def session_file(path: Path, count: int, broken: int | None = None) -> Path:
    lines = ['{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}']
    parent = "null"
    for n in range(count):
        message = f'{{"role":"user","content":"say {n}","timestamp":1}}'
        line = (
            f'{{"type":"message","id":"e{n}","parentId":{parent},'
            f'"timestamp":"2026-01-01T00:00:00.000Z","message":{message}}}'
        )
        if n == broken:
            line = line[:-2] + ",}}"  # invalid past its prefix: found when parsed
        lines.append(line)
        parent = f'"e{n}"'
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.usefixtures("split_every_file")
def test_the_lines_stay_in_the_file_until_read(tmp_path: Path) -> None:
    """Both halves' lines: the parent keeps none of its own either (on a virtual machine,
    memory touched for the first time is costly)."""
    session = Session.open(session_file(tmp_path / "lazy.jsonl", 200), readonly=True)
    table = session.table
    assert unloaded(session) == len(table.ids) >= 200
    assert table.entry(150)["message"]["content"] == "say 150"
    assert 100 < unloaded(session) < len(table.ids)  # that line and the ones after it read
    assert len(session.build_context().messages) == 200
    assert unloaded(session) == 0


@pytest.mark.usefixtures("split_every_file")
def test_a_broken_line_in_the_second_half_is_skipped_as_by_one_process(tmp_path: Path) -> None:
    path = session_file(tmp_path / "broken.jsonl", 200, broken=150)
    two = Session.open(path, readonly=True)
    one = _one_process(path)
    assert [m["content"] for m in two.build_context().messages] == [
        m["content"] for m in one.build_context().messages
    ]
    assert [str(p) for p in two.problems] == [str(p) for p in one.problems]
    assert [p.line for p in two.problems] == [152]


@pytest.mark.usefixtures("split_every_file")
def test_a_replaced_file_still_reads_as_it_was_opened(tmp_path: Path) -> None:
    path = session_file(tmp_path / "replaced.jsonl", 200)
    session = Session.open(path, readonly=True)
    other = session_file(tmp_path / "other.jsonl", 10)
    other.replace(path)  # another file at that path: the open session reads its own
    assert unloaded(session) > 0
    assert len(session.build_context().messages) == 200


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_one_process_leaving_the_lines_in_the_file_reads_as_keeping_them(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with path.open("rb") as handle:
        kept = scan_stream(handle)
    monkeypatch.setattr(jsonl_scan_split, "LINES_LEFT_BYTES", 0)
    with path.open("rb") as handle:
        left = jsonl_scan_split._scan_whole(handle)
        if left is None:  # no header: read again as one stream
            return
        assert handle.tell() == path.stat().st_size
    assert index_of(left[0]) == index_of(kept[0])
    assert left[1] == kept[1]
    try:
        session = Session.open(path, readonly=True)
    except SessionFileError:
        return
    monkeypatch.setattr(jsonl_scan_split, "LINES_LEFT_BYTES", 1 << 62)
    assert what_it_reads(session) == what_it_reads(Session.open(path, readonly=True))


def test_a_file_from_a_megabyte_on_is_opened_without_its_lines(tmp_path: Path) -> None:
    """One process (the file is under the size two processes share), no line kept: the
    lines are read when needed (on a virtual machine, memory touched for the first time is
    costly); a smaller file keeps its lines."""
    big = session_file(tmp_path / "big.jsonl", 9000)
    assert jsonl_scan_split.LINES_LEFT_BYTES <= big.stat().st_size
    assert big.stat().st_size < jsonl_scan_split.PARALLEL_SCAN_BYTES
    session = Session.open(big, readonly=True)
    assert unloaded(session) == len(session.table.ids) == 9000
    assert len(session.build_context().messages) == 9000
    small = Session.open(session_file(tmp_path / "small.jsonl", 100), readonly=True)
    assert unloaded(small) == 0


@pytest.mark.parametrize("cut", [50, 1])
def test_a_file_cut_short_in_its_last_line_after_opening_is_an_error(
    tmp_path: Path, cut: int
) -> None:
    """The last line read again without its newline (the file cut short since it was
    opened): one clear error, never a branch that silently lost its leaf."""
    path = session_file(tmp_path / "cut.jsonl", 9000)
    size = path.stat().st_size
    session = Session.open(path, readonly=True)
    os.truncate(path, size - cut)
    with pytest.raises(SessionFileError, match="changed since it was read"):
        session.build_context()
    with pytest.raises(SessionFileError, match="changed since it was read"):
        session.encoded_context(workers=1)


def test_without_pread_the_lines_are_kept_and_encode_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where ``os.pread`` is missing (Windows), a file of a megabyte or more is read as one
    stream, keeping its lines, and its context encodes to the same bytes."""
    big = session_file(tmp_path / "big.jsonl", 9000)

    def encoded_bytes(session: Session) -> bytes:
        encoded, _ = session.encoded_context(workers=1)
        return encoded.read(0, encoded.size)

    expected = encoded_bytes(Session.open(big, readonly=True))
    monkeypatch.delattr(os, "pread")
    session = Session.open(big, readonly=True)
    assert unloaded(session) == 0
    assert encoded_bytes(session) == expected


def test_no_child_is_forked_while_another_thread_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    monkeypatch.setattr(jsonl_scan_split, "PARALLEL_SCAN_BYTES", 0)
    path = session_file(tmp_path / "threads.jsonl", 200)
    if jsonl_scan_split.can_fork():
        assert unloaded(Session.open(path, readonly=True)) > 0
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert not jsonl_scan_split.can_fork()
        assert unloaded(Session.open(path, readonly=True)) == 0
    finally:
        release.set()
        other.join()
