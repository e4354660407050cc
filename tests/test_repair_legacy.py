"""``tether session repair`` on v1/v2 files (and with duplicate ids), as real processes (issue 7,
items 1 and 11)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.cli_in_process import run_in_process
from tests.store_helpers import FIXTURES, STORE_PI, run_tether
from tether.builtin_plugins.storage.format.migration import header_version

LEGACY = sorted(
    path
    for path in FIXTURES.rglob("*.jsonl")
    if header_version(json.loads(path.read_bytes().split(b"\n", 1)[0])) < 3
)


def _context(path: Path) -> dict[str, Any]:
    """``session context --json`` in this process (the repairs are the real processes)."""
    result = run_in_process("session", "context", str(path), "--json")
    assert result.returncode == 0, result.stderr
    context = json.loads(result.stdout)
    context.pop("leafId")  # a v1 file gets fresh ids at every in-memory migration
    return context


def test_every_legacy_fixture_is_found() -> None:
    names = [path.name for path in LEGACY]
    assert "e35-legacy-v1.jsonl" in names and "e36-legacy-v2-hookmessage.jsonl" in names


@pytest.mark.parametrize("fixture", LEGACY, ids=[path.stem for path in LEGACY])
def test_repair_leaves_a_clean_legacy_file_alone(fixture: Path, tmp_path: Path) -> None:
    path = tmp_path / fixture.name
    shutil.copyfile(fixture, path)
    before, context = path.read_bytes(), _context(path)
    result = run_tether("session", "repair", str(path))
    assert result.returncode == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert first == f"{path}: nothing to repair"
    assert "read as v3 (migrated in memory)" in result.stdout
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [fixture.name]  # no sidecar, no backup
    assert _context(path) == context


@pytest.mark.parametrize("fixture", LEGACY, ids=[path.stem for path in LEGACY])
def test_repair_of_a_damaged_legacy_file_moves_only_the_damage(
    fixture: Path, tmp_path: Path
) -> None:
    path = tmp_path / fixture.name
    lines = fixture.read_bytes().split(b"\n")
    lines.insert(3, b'{"type":"message", broken')
    lines.insert(6, b"[1, 2]")
    path.write_bytes(b"\n".join(lines))
    context = _context(path)
    result = run_tether("session", "repair", str(path))
    assert result.returncode == 0, result.stderr
    assert "moved 2 damaged line(s) (4, 7)" in result.stdout
    (sidecar,) = tmp_path.glob("*.damaged-*")
    assert sidecar.read_bytes() == b'{"type":"message", broken\n[1, 2]\n'
    kept = [line for n, line in enumerate(lines, 1) if n not in (4, 7) and line]
    assert path.read_bytes().splitlines() == kept  # every readable line, byte for byte
    assert _context(path) == context
    again = run_in_process("session", "repair", str(path))
    assert again.stdout.splitlines()[0] == f"{path}: nothing to repair"


def test_repair_reports_duplicate_ids_and_keeps_them(tmp_path: Path) -> None:
    fixture = tmp_path / "dup.jsonl"
    shutil.copyfile(STORE_PI / "dup-id-branches.jsonl", fixture)
    message = "duplicate id c3 at lines 4 and 6 (the last one is used, as in pi)"
    before = fixture.read_bytes()
    repaired = run_tether("session", "repair", str(fixture))
    assert repaired.stdout.splitlines() == [
        f"{fixture}: nothing to repair",
        f"{fixture}: note: {message}",
    ]
    assert fixture.read_bytes() == before  # pi's reading of it is kept: nothing to change
