"""v1 files get the same entry ids on every read, and the on-disk migration writes those ids.

An id shown by one command (``session tree``, ``session context``) must work in the next
(``--leaf``, ``clone --at``, ``fork --before``, ``branch --to``), so the in-memory migration of a
v1 file cannot invent random ids.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.cli_in_process import run_in_process
from tests.lease_helpers import tether
from tests.store_helpers import GEN

LEGACY = ["e35-legacy-v1.jsonl", "e36-legacy-v2-hookmessage.jsonl"]


def _json(tmp_path: Path, *args: str, process: bool = False) -> dict:
    """``tether ARGS`` (a read-only command) in this process, or a real one: ``process``."""
    if process:
        result = tether(tmp_path, *args)
    else:
        result = run_in_process(*args, home=tmp_path / "home", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _ids(data: bytes) -> list[str]:
    records = [json.loads(line) for line in data.split(b"\n") if line.strip()]
    return [r["id"] for r in records if r.get("type") != "session"]


@pytest.mark.parametrize("name", LEGACY)
def test_context_twice_gives_the_same_ids(name: str, tmp_path: Path) -> None:
    path = str(GEN / name)
    first = _json(tmp_path, "session", "context", path, "--json", process=True)
    second = _json(tmp_path, "session", "context", path, "--json")  # another process's
    assert first["leafId"] is not None
    assert first["leafId"] == second["leafId"]
    assert first == second
    tree_a = _json(tmp_path, "session", "tree", path, "--json", process=True)
    tree_b = _json(tmp_path, "session", "tree", path, "--json")
    assert tree_a["preorder"] == tree_b["preorder"] and len(tree_a["preorder"]) > 3
    assert tree_a["leafId"] == first["leafId"]


@pytest.mark.parametrize("name", LEGACY)
def test_an_id_shown_by_tree_works_in_the_next_command(name: str, tmp_path: Path) -> None:
    source = tmp_path / name
    shutil.copyfile(GEN / name, source)
    before = source.read_bytes()
    tree = _json(tmp_path, "session", "tree", str(source), "--json")
    middle = tree["branch"][len(tree["branch"]) // 2]
    clone = tether(tmp_path, "session", "clone", str(source), "--at", middle, "-o", "c.jsonl")
    assert clone.returncode == 0, clone.stderr
    assert middle in _ids((tmp_path / "c.jsonl").read_bytes())
    context = _json(tmp_path, "session", "context", str(source), "--leaf", middle, "--json")
    assert context["leafId"] == middle
    assert source.read_bytes() == before  # reading never migrates the file on disk


@pytest.mark.parametrize("name", LEGACY)
def test_the_on_disk_migration_writes_the_ids_that_were_shown(name: str, tmp_path: Path) -> None:
    copy = tmp_path / name
    shutil.copyfile(GEN / name, copy)
    shown = _json(tmp_path, "session", "tree", str(copy), "--json")["preorder"]
    result = tether(tmp_path, "run", "--provider", "faux", "--session", str(copy), "hi")
    assert result.returncode == 0, result.stderr
    on_disk = _ids(copy.read_bytes())
    assert set(on_disk[: len(shown)]) == set(shown) and len(on_disk) > len(shown)
    again = _json(tmp_path, "session", "tree", str(copy), "--json")["preorder"]
    assert set(shown) <= set(again)


def test_derived_ids_skip_taken_ones_deterministically() -> None:
    from tether.builtin_plugins.storage.format.migration import derived_entry_id

    first = derived_entry_id("s", 1, set())
    assert first == derived_entry_id("s", 1, set()) and len(first) == 8
    other = derived_entry_id("s", 1, {first})
    assert other != first and other == derived_entry_id("s", 1, {first})
    assert derived_entry_id("s", 2, set()) != first


def test_many_records_get_unique_stable_ids() -> None:
    from tether.builtin_plugins.storage.format.migration import migrate_bytes

    header = b'{"type":"session","id":"s","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/"}\n'
    line = b'{"type":"message","timestamp":"2025-01-01T00:00:00.000Z","message":{}}\n'
    data = header + line * 50
    ids = _ids(migrate_bytes(data))
    assert len(set(ids)) == 50 and ids == _ids(migrate_bytes(data))


def test_fork_and_branch_accept_ids_shown_for_a_v1_file(tmp_path: Path) -> None:
    source = tmp_path / "v1.jsonl"
    shutil.copyfile(GEN / "e35-legacy-v1.jsonl", source)
    tree = _json(tmp_path, "session", "tree", str(source), "--json")
    first_user = tree["entries"][0]["id"]  # e35 starts with a user message
    fork = tether(tmp_path, "session", "fork", str(source), "--before", first_user, "-o", "f.jsonl")
    assert fork.returncode == 0, fork.stderr
    middle = tree["branch"][len(tree["branch"]) // 2]
    branch = tether(tmp_path, "session", "branch", str(source), "--to", middle)
    assert branch.returncode == 0, branch.stderr
    assert _json(tmp_path, "session", "context", str(source), "--json")["leafId"] == middle
