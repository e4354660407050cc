"""A one-branch session's path is its rows in order, found without walking the parents one
lookup at a time (a million-entry file); a file that is not one branch is walked as before."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tether.core.session.session import Session

HEADER = {"type": "session", "version": 3, "id": "s", "timestamp": "t", "cwd": "/"}


def entry(entry_id: str, parent: str | None) -> dict[str, Any]:
    message = {"role": "user", "content": entry_id, "timestamp": 1}
    return {
        "type": "message",
        "id": entry_id,
        "parentId": parent,
        "timestamp": "2026-01-01T00:00:00.000Z",
        "message": message,
    }


def write(path: Path, entries: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(e) + "\n" for e in [HEADER, *entries]))
    return path


class CountingDict(dict):  # type: ignore[type-arg]
    lookups = 0

    def get(self, *args: Any) -> Any:
        CountingDict.lookups += 1
        return super().get(*args)


def path_of(file: Path, leaf: str) -> tuple[list[str], int]:
    session = Session.open(file, readonly=True)
    table = session._table
    table.by_id = CountingDict(table.by_id)
    CountingDict.lookups = 0
    ids = [e["id"] for e in session.get_branch(leaf)]
    return ids, CountingDict.lookups


def test_a_one_branch_path_needs_no_parent_lookups(tmp_path: Path) -> None:
    ids = [f"e{n}" for n in range(50)]
    entries = [entry(i, ids[n - 1] if n else None) for n, i in enumerate(ids)]
    path, lookups = path_of(write(tmp_path / "one.jsonl", entries), "e30")
    assert path == ids[:31]
    assert lookups <= 1  # the leaf's own row


def test_branches_duplicates_and_a_root_with_a_parent_are_walked(tmp_path: Path) -> None:
    ids = [f"e{n}" for n in range(6)]
    branched = [entry(i, ids[n - 1] if n else None) for n, i in enumerate(ids)]
    branched[4]["parentId"] = "e2"  # e3 and e4 are siblings
    path, lookups = path_of(write(tmp_path / "branched.jsonl", branched), "e5")
    assert path == ["e0", "e1", "e2", "e4", "e5"] and lookups > 0
    cycle = [entry(i, ids[n - 1] if n else "e5") for n, i in enumerate(ids)]
    path, _ = path_of(write(tmp_path / "cycle.jsonl", cycle), "e5")
    assert path[-1] == "e5" and len(path) == len(set(path)) <= 6
