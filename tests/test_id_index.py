"""The id → row index of an entry table is built when first asked for: a one-branch session
with no id twice shows its context without it, and everything that asks for it gets the rows
pi's ``byId`` map gives (a later duplicate wins)."""

from __future__ import annotations

from pathlib import Path

from tests.test_file_scan import session_file
from tether.core.session.session import Session


def with_line(path: Path, line: str) -> Path:
    path.write_text(path.read_text() + line + "\n")
    return path


def test_a_one_branch_session_shows_its_context_without_the_index(tmp_path: Path) -> None:
    session = Session.open(session_file(tmp_path / "one.jsonl", 50), readonly=True)
    table = session.table
    context = session.build_context()
    assert len(context.messages) == 50
    assert table._by_id is None and not table.has_duplicate_ids()
    assert table.row_of("e49") == 49 and table._by_id is None  # the leaf: still no index
    assert table.row_of("e7") == 7 and table._by_id is not None  # another id: built now
    assert table.by_id == {f"e{n}": n for n in range(50)}
    assert table.parents[1] is table.ids[0]  # one string object per id


def test_an_id_used_twice_is_indexed_and_reported_when_the_file_is_read(tmp_path: Path) -> None:
    path = session_file(tmp_path / "twice.jsonl", 5)
    line = (
        '{"type":"message","id":"e2","parentId":"e4","timestamp":"2026-01-01T00:00:00.000Z",'
        '"message":{"role":"user","content":"again","timestamp":1}}'
    )
    session = Session.open(with_line(path, line), readonly=True)
    table = session.table
    assert table._by_id is not None and table.has_duplicate_ids()
    assert table.row_of("e2") == 5  # the later one, as pi's map
    assert any("duplicate" in str(problem) for problem in session.problems)


def test_a_first_parent_that_is_a_later_row_is_that_rows_id(tmp_path: Path) -> None:
    """Row 0's parent naming a later row (a loop pi would walk forever): the branch check
    sees it, and the parent is the row's own id object."""
    path = tmp_path / "loop.jsonl"
    session_file(path, 4)
    text = path.read_text().replace('"id":"e0","parentId":null', '"id":"e0","parentId":"e3"')
    path.write_text(text)
    session = Session.open(path, readonly=True)
    table = session.table
    assert table.parents[0] == "e3" and table.parents[0] is table.ids[3]
    assert [m["content"] for m in session.build_context().messages] == [
        f"say {n}" for n in range(4)
    ]
    assert [p.kind for p in session.problems] == ["cycle"]  # as before the index waited
