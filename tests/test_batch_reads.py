"""A batch of rows read again from the session file in one read (``batches.
_lines_in_one_read``) gives each row's own line, or nothing (then each row is read on its
own): blank, broken and glued lines between rows, a CRLF line, rows out of file order, a
file cut short since it was indexed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.test_context_bytes import GOLDENS, session_of
from tether.builtin_plugins.storage.jsonl.context import batches as parallel
from tether.builtin_plugins.storage.jsonl.scan import file_lines
from tether.core.session.session import Session

HEADER = {"type": "session", "version": 3, "id": "s1", "timestamp": "2025-01-01T00:00:00.000Z"}


def entry_line(n: int, parent: str | None) -> str:
    message = {"role": "user", "content": f"hello {n}", "timestamp": n}
    entry = {
        "type": "message",
        "id": f"e{n:04d}",
        "parentId": parent,
        "timestamp": "2025-01-01T00:00:01.000Z",
        "message": message,
    }
    return json.dumps(entry, separators=(",", ":"))


def odd_session(path: Path) -> Path:
    """A one-branch session with what a single read must not get wrong between its rows."""
    lines = [json.dumps(HEADER, separators=(",", ":"))]
    parent = None
    for n in range(40):
        line = entry_line(n, parent)
        if n == 7:
            lines.append("")  # a blank line
        if n == 12:
            lines.append('{"type":"message","id":"broken",')  # a line pi skips
        if n == 20:
            line = line[: len(line) // 2] + line  # a torn write, the record glued after it
        if n == 30:
            line += "\r"
        lines.append(line)
        parent = f"e{n:04d}"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def own_lines(table: object, rows: list[int]) -> list[bytes | None]:
    return [table.raw_line(row) for row in rows]  # type: ignore[attr-defined]


def one_read(table: object, rows: list[int]) -> list[bytes | None] | None:
    fd = file_lines.open_indexed(table.file)  # type: ignore[attr-defined]
    if fd is None:  # a legacy file, migrated in memory: no lines to read again
        return None
    try:
        size = table.file[3]  # type: ignore[attr-defined]
        return parallel._lines_in_one_read(fd, rows, table, size)  # type: ignore[arg-type]
    finally:
        os.close(fd)


def windows(count: int, width: int) -> list[list[int]]:
    return [list(range(start, min(start + width, count))) for start in range(count)]


def test_each_window_of_an_odd_session_is_its_rows_own_lines_or_nothing(tmp_path: Path) -> None:
    session = Session.open(odd_session(tmp_path / "odd.jsonl"), readonly=True)
    table = session.table
    assert "e0020" not in table.by_id  # the glued record is dropped, as pi drops it
    found = 0
    for rows in windows(len(table), 6):
        lines = one_read(table, rows)
        if lines is not None:
            found += 1
            assert lines == own_lines(table, rows)
    assert found > 20  # the blank, broken, glued and CRLF lines between rows do not stop it


@pytest.mark.parametrize("golden", GOLDENS[::4], ids=lambda p: p.name.split(".")[0])
def test_fixture_sessions_read_in_one_read_as_row_by_row(golden: Path) -> None:
    table = Session.open(session_of(golden), readonly=True).table
    for rows in windows(len(table), 9):
        lines = one_read(table, rows)
        assert lines is None or lines == own_lines(table, rows)


def test_rows_out_of_file_order_are_found_by_where_they_start(tmp_path: Path) -> None:
    table = Session.open(odd_session(tmp_path / "odd.jsonl"), readonly=True).table
    rows = [5, 2, 3, 4]  # a compaction's row first, then the kept ones after it
    assert one_read(table, rows) is None  # the first row's line is after the others
    rows = [9, 2, 3, 4]  # the batch ends before the compaction's row
    assert one_read(table, rows) is None
    rows = [2, 4, 3, 5]  # within the first and the last row's lines: each found
    assert one_read(table, rows) == own_lines(table, rows)


def test_the_last_row_and_a_file_cut_short_are_read_row_by_row(tmp_path: Path) -> None:
    path = odd_session(tmp_path / "odd.jsonl")
    table = Session.open(path, readonly=True).table
    last = len(table) - 1
    assert one_read(table, [last - 1, last]) is None  # no row after it: its end is unknown
    assert one_read(table, [last - 3, last - 2]) is not None
    data = path.read_bytes()
    with path.open("r+b") as handle:  # same inode, cut inside the last rows' lines
        handle.truncate(table.offsets[last - 2] + 5)
    assert one_read(table, [last - 3, last - 2]) is None
    path.write_bytes(data)


def test_a_line_moved_in_place_since_indexing_is_read_row_by_row(tmp_path: Path) -> None:
    """Rows that follow each other are cut where the index says their lines start; when the
    file was rewritten in place since (same size, a newline moved into a row's line), that
    run is read row by row, never cut at the wrong bytes."""
    path = odd_session(tmp_path / "odd.jsonl")
    table = Session.open(path, readonly=True).table
    rows = [2, 3, 4, 5]
    assert one_read(table, rows) == own_lines(table, rows)
    assert one_read(table, [2, 4, 5, 6]) == own_lines(table, [2, 4, 5, 6])  # row 3 between
    data = bytearray(path.read_bytes())
    end = table.offsets[4] - 1  # the newline after row 3's line
    assert data[end] == ord("\n")
    data[end] = ord(" ")
    data[table.offsets[3] + 10] = ord("\n")  # as many newlines, one inside row 3's line
    with path.open("r+b") as handle:  # same inode, same size
        handle.write(data)
    assert one_read(table, rows) is None
    assert one_read(table, [2, 4, 5, 6]) is None
    assert one_read(table, [4, 5]) == own_lines(table, [4, 5])


def test_a_range_of_too_many_bytes_is_read_row_by_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Session.open(odd_session(tmp_path / "odd.jsonl"), readonly=True).table
    rows = list(range(2, 19))
    assert one_read(table, rows) == own_lines(table, rows)
    monkeypatch.setattr(parallel, "ONE_READ_BYTES", table.offsets[19] - table.offsets[2] - 1)
    assert one_read(table, rows) is None  # one read of that size: each line on its own


def test_rows_among_many_others_are_read_row_by_row(tmp_path: Path) -> None:
    table = Session.open(odd_session(tmp_path / "odd.jsonl"), readonly=True).table
    rows = [2, 3, 4, 5, 6, 7, 8, 9]
    assert one_read(table, rows) == own_lines(table, rows)
    assert one_read(table, [2, 3, 4, 5, 6, 7, 8, 10]) is not None  # one row more: still one read
    assert one_read(table, [2, 4, 6, 8, 10, 12, 14, 16]) is None  # another branch's rows between
