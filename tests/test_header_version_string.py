"""A header whose ``version`` is a string: pi compares it as a number (``"3" < 3`` is false in
JavaScript), so ``"3"`` is a v3 session and ``"2"`` a v2 one to migrate; the database import
agrees, and its refusal names the field and what it expected."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.store_helpers import run_tether
from tether.builtin_plugins.storage.format.migration import header_version
from tether.builtin_plugins.storage.sql.database import split_session_bytes
from tether.storage import StoreError

ENTRY = {
    "type": "message",
    "id": "a1",
    "parentId": None,
    "timestamp": "2026-01-01T00:00:01.000Z",
    "message": {"role": "user", "content": "hi", "timestamp": 1},
}


def _header(version: object, session_id: str = "s1") -> dict[str, object]:
    return {
        "type": "session",
        "version": version,
        "id": session_id,
        "timestamp": "2026-01-01T00:00:00.000Z",
        "cwd": "/tmp",
    }


@pytest.mark.parametrize(
    ("version", "read"),
    [("3", 3), (" 3 ", 3), ("2", 2), ("", 0), ("0x2", 2), ("x", 3), ("inf", 3), (3, 3), (None, 1)],
)
def test_a_string_version_reads_as_javascript_numbers_it(version: object, read: float) -> None:
    header = _header(version) if version is not None else {"type": "session"}
    assert header_version(header) == read


def test_the_import_takes_a_string_version_3(tmp_path: Path) -> None:
    file = tmp_path / "s.jsonl"
    file.write_text(json.dumps(_header("3")) + "\n" + json.dumps(ENTRY) + "\n")
    before = file.read_bytes()
    store = ["--store", f"sqlite:///{tmp_path / 'db.sqlite'}"]
    env = {"TETHER_HOME": str(tmp_path / "home"), "TETHER_FSYNC": "0"}
    done = run_tether(*store, "session", "import", str(file), env=env, cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert done.stdout == f"{file} → s1\n"
    shown = run_tether(*store, "session", "show", "s1", env=env, cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "session:   s1  (format v3 on disk)" in shown.stdout.splitlines()
    out = tmp_path / "back.jsonl"
    back = run_tether(*store, "session", "export", "s1", "-o", str(out), env=env, cwd=tmp_path)
    assert back.returncode == 0, back.stderr
    assert out.read_bytes() == before == file.read_bytes()  # stored byte for byte


@pytest.mark.parametrize(
    ("header", "said"),
    [
        (_header(2), "the session header has version 2; expected version 3"),
        (_header("2"), 'the session header has version "2"; expected version 3'),
        ({"type": "session", "id": "s1"}, "the session header has no version; expected version 3"),
    ],
)
def test_an_older_header_is_refused_naming_the_field(header: dict, said: str) -> None:
    data = (json.dumps(header) + "\n").encode()
    with pytest.raises(StoreError) as caught:
        split_session_bytes(data, "f.jsonl")
    assert str(caught.value) == f"f.jsonl: {said} (migrate it first)"
