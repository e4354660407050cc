"""A session file indexed with its lines left in the file (read again when needed) reads
exactly as one whose lines are kept: the index, the problems, the context, the tree, names and
labels, on every fixture; a line broken past its prefix is found when read; a file replaced
meanwhile reads as it was opened; one cut short is one clear error."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tether.builtin_plugins.commands.session.tree_json import tree_json
from tether.builtin_plugins.storage.jsonl.context.batches import encode_context
from tether.builtin_plugins.storage.jsonl.scan import file_scan
from tether.builtin_plugins.storage.jsonl.scan.scanner import scan_stream
from tether.core.base.errors import SessionFileError
from tether.core.session.session import Session

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
        tree_json(session),
        session.labels(),
        session.session_name,
        [table.stamp(r) for r in rows],
        [table.role(r) for r in rows],
        [table.entry(r) for r in rows],
        [str(p) for p in session.problems],
    )


@pytest.fixture
def lines_left(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(file_scan, "LINES_LEFT_BYTES", 0)


def _lines_kept(path: Path) -> Session:
    saved = file_scan.LINES_LEFT_BYTES
    file_scan.LINES_LEFT_BYTES = 1 << 62
    try:
        return Session.open(path, readonly=True)
    finally:
        file_scan.LINES_LEFT_BYTES = saved


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


@pytest.mark.usefixtures("lines_left")
def test_the_lines_stay_in_the_file_until_read(tmp_path: Path) -> None:
    """On a virtual machine, memory touched for the first time is costly."""
    session = Session.open(session_file(tmp_path / "lazy.jsonl", 200), readonly=True)
    table = session.table
    assert unloaded(session) == len(table.ids) >= 200
    assert table.entry(150)["message"]["content"] == "say 150"
    assert 100 < unloaded(session) < len(table.ids)  # that line and the ones after it read
    assert len(session.build_context().messages) == 200
    assert unloaded(session) == 0


@pytest.mark.usefixtures("lines_left")
def test_a_broken_line_left_in_the_file_is_skipped_as_when_kept(tmp_path: Path) -> None:
    path = session_file(tmp_path / "broken.jsonl", 200, broken=150)
    two = Session.open(path, readonly=True)
    one = _lines_kept(path)
    assert [m["content"] for m in two.build_context().messages] == [
        m["content"] for m in one.build_context().messages
    ]
    assert [str(p) for p in two.problems] == [str(p) for p in one.problems]
    assert [p.line for p in two.problems] == [152]


@pytest.mark.usefixtures("lines_left")
def test_a_replaced_file_still_reads_as_it_was_opened(tmp_path: Path) -> None:
    path = session_file(tmp_path / "replaced.jsonl", 200)
    session = Session.open(path, readonly=True)
    other = session_file(tmp_path / "other.jsonl", 10)
    other.replace(path)  # another file at that path: the open session reads its own
    assert unloaded(session) > 0
    assert len(session.build_context().messages) == 200


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_leaving_the_lines_in_the_file_reads_as_keeping_them(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with path.open("rb") as handle:
        kept = scan_stream(handle)
    monkeypatch.setattr(file_scan, "LINES_LEFT_BYTES", 0)
    with path.open("rb") as handle:
        left = file_scan._scan_whole(handle)
        if left is None:  # no header: read again as one stream
            return
        assert handle.tell() == path.stat().st_size
    assert index_of(left[0]) == index_of(kept[0])
    assert left[1] == kept[1]
    try:
        session = Session.open(path, readonly=True)
    except SessionFileError:
        return
    monkeypatch.setattr(file_scan, "LINES_LEFT_BYTES", 1 << 62)
    assert what_it_reads(session) == what_it_reads(Session.open(path, readonly=True))


def test_a_file_from_a_megabyte_on_is_opened_without_its_lines(tmp_path: Path) -> None:
    """No line kept: the lines are read when needed (on a virtual machine, memory touched
    for the first time is costly); a smaller file keeps its lines."""
    big = session_file(tmp_path / "big.jsonl", 9000)
    assert file_scan.LINES_LEFT_BYTES <= big.stat().st_size
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
        encode_context(session, session.leaf_id)


def test_without_pread_the_lines_are_kept_and_encode_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where ``os.pread`` is missing (Windows), a file of a megabyte or more is read as one
    stream, keeping its lines, and its context encodes to the same bytes."""
    big = session_file(tmp_path / "big.jsonl", 9000)

    def encoded_bytes(session: Session) -> bytes:
        encoded, _ = encode_context(session, session.leaf_id)
        return encoded.read(0, encoded.size)

    expected = encoded_bytes(Session.open(big, readonly=True))
    monkeypatch.delattr(os, "pread")
    session = Session.open(big, readonly=True)
    assert unloaded(session) == 0
    assert encoded_bytes(session) == expected


ODD_LINES = [
    '{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}',
    "",
    '{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user"}}',
    '{"type":"custom","customType":"x","data":{},"id":"b","parentId":"a","timestamp":"t"}',
    "not json at all",
    '{"type":"message","id":"c","parentId":"b","timestamp":"t"}{"type":"message","id":"d",'
    '"parentId":"c","timestamp":"t"}',
    '{"id":"e","type":"label","parentId":"b","timestamp":"t","targetId":"a"}',
    "   ",
    '{"type":"message","id":"f","parentId":"e","timestamp":"t","message":{"role":"user"}}',
]


@pytest.mark.parametrize("block", [1, 2, 7, 64, 1000])
@pytest.mark.parametrize("name", ["fixtures", "odd lines"])
def test_lines_left_read_the_same_in_blocks_of_any_size(
    name: str, block: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lines that stay in the file are found by their newlines (``block_lines``), not split
    out of each block: any block size, so lines across blocks' ends, a header after blank
    lines, odd and glued lines, and a last line without its newline index as when kept."""
    paths = FILES[:: max(1, len(FILES) // 12)]
    if name == "odd lines":
        paths = [tmp_path / "odd.jsonl", tmp_path / "odd-unterminated.jsonl"]
        paths[0].write_text("\n".join(ODD_LINES) + "\n")
        paths[1].write_text("\n" + "\n".join(ODD_LINES))
    monkeypatch.setattr(file_scan, "LINES_LEFT_BYTES", 0)
    compared = 0
    for path in paths:
        with path.open("rb") as handle:
            kept = scan_stream(handle)
        monkeypatch.setattr(file_scan, "BLOCK_SIZE", block)
        with path.open("rb") as handle:
            left = file_scan._scan_whole(handle)
        monkeypatch.setattr(file_scan, "BLOCK_SIZE", 512 << 10)
        if left is not None:  # None: no header, read again as one stream
            assert index_of(left[0]) == index_of(kept[0]), path.name
            assert left[1] == kept[1]
            compared += 1
    assert compared >= len(paths) // 2  # most files have a header: they are compared
