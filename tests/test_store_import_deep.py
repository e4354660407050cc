"""A line nested too deeply for Python's parser imports like any damaged line (issue 22, item 5).

The JSONL readers skip such a line with a problem (as pi drops a line it cannot parse); the
database import kept it as bytes but crashed on it while indexing the listing
(``internal error: RecursionError``). Now it is stored, exported byte for byte, and read with
the same problem as the file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.store_backends import DATABASES, make_backend
from tests.store_helpers import run_tether
from tether.builtin_plugins.storage.jsonl.store import JsonlStore
from tether.core.session.session import Session

HEADER = {
    "type": "session",
    "version": 3,
    "id": "0193aaaa-0000-7000-8000-000000000001",
    "timestamp": "2025-01-01T00:00:00.000Z",
    "cwd": "/tmp",
}
DEPTH = 100_000


def _deep_session(folder: Path) -> Path:
    deep = "[" * DEPTH + "]" * DEPTH
    line = (
        '{"type":"message","id":"a1","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z",'
        '"message":{"role":"user","content":' + deep + ',"timestamp":1}}'
    )
    ok = {
        "type": "message",
        "id": "a2",
        "parentId": None,
        "timestamp": "2025-01-01T00:00:02.000Z",
        "message": {"role": "user", "content": "still here", "timestamp": 2},
    }
    file = folder / "deep.jsonl"
    file.write_text("\n".join([json.dumps(HEADER), line, json.dumps(ok)]) + "\n")
    return file


def _problems(session: Session) -> list[tuple[int, str]]:
    return [(p.line, p.message) for p in session.problems]


@pytest.mark.parametrize("store", DATABASES)
def test_a_deeply_nested_line_is_imported_and_read_as_the_file_reads(
    request: pytest.FixtureRequest, tmp_path: Path, store: str
) -> None:
    file = _deep_session(tmp_path)
    backend = make_backend(request, store, tmp_path / store)
    session_id = backend.add(file)
    from tether.builtin_plugins.commands.store_select import open_stored_session

    stored = open_stored_session(backend.database(), session_id, validate_all=True)
    from_file = Session(store=JsonlStore(file), loaded=JsonlStore(file).load(validate_all=True))
    assert _problems(stored) == _problems(from_file)
    assert _problems(stored) and _problems(stored)[0][0] == 2
    assert [e["id"] for e in stored.entries()] == ["a2"]
    rows = backend.database().list_sessions()
    assert [(r.id, r.message_count, r.first_message) for r in rows] == [
        (session_id, 1, "still here")
    ]
    back = tmp_path / "back.jsonl"
    from tether.builtin_plugins.commands.store.listing import export_session

    export_session(backend.database(), session_id, back)
    assert back.read_bytes() == file.read_bytes()


def test_session_import_of_a_deeply_nested_line_exits_0(tmp_path: Path) -> None:
    file = _deep_session(tmp_path)
    uri = f"sqlite:///{tmp_path}/s.db"  # four slashes: absolute
    done = run_tether("session", "import", str(file), "--store", uri, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{file} → {HEADER['id']}\n" and done.stderr == ""
