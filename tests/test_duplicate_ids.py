"""Duplicate entry ids are reported as such, and the context stays pi's (issue 7, item 11)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.cli_in_process import run_in_process
from tests.store_helpers import STORE_PI, run_tether


def _dup_on_one_branch(tmp_path: Path) -> tuple[Path, str]:
    """A later entry reuses an id of its own ancestor: pi loops forever on it."""
    lines = (STORE_PI / "dup-id-branches.jsonl").read_bytes().splitlines()
    records = [json.loads(line) for line in lines]
    records[4]["id"] = records[1]["id"]  # line 5 reuses line 2's id
    records[5]["parentId"] = records[4]["id"]
    path = tmp_path / "dup-on-branch.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records[:6]), encoding="utf-8")
    return path, records[1]["id"]


def test_duplicate_ids_are_reported_as_such(tmp_path: Path) -> None:
    fixture = tmp_path / "dup.jsonl"
    shutil.copyfile(STORE_PI / "dup-id-branches.jsonl", fixture)
    message = "duplicate id c3 at lines 4 and 6 (the last one is used, as in pi)"
    for args in (("show",), ("show", "--validate")):
        shown = run_tether("session", *args, str(fixture))
        assert shown.returncode == (1 if "--validate" in args else 0), shown.stderr
        assert f"  line 6: {message}" in shown.stdout.splitlines()
    as_json = json.loads(run_in_process("session", "show", str(fixture), "--json").stdout)
    assert {"line": 6, "kind": "duplicate-id", "message": message} in as_json["problems"]

    looped, dup = _dup_on_one_branch(tmp_path)
    shown = run_tether("session", "show", str(looped), timeout=30)
    assert shown.returncode == 0
    assert f"duplicate id {dup} at lines 2 and 5" in shown.stdout
    assert "parentId cycle" not in shown.stdout


def test_duplicate_id_context_is_pis(tmp_path: Path) -> None:
    # tests/fixtures/store_pi/dup-id-branches-pi-context.json is the oracle's (pi 0.73.1)
    # ``context`` of dup-id-branches.jsonl: the later c3 wins, d4 (child of the first c3)
    # hangs under it.
    pi = json.loads((STORE_PI / "dup-id-branches-pi-context.json").read_text(encoding="utf-8"))
    result = run_tether("session", "context", str(STORE_PI / "dup-id-branches.jsonl"), "--json")
    assert result.returncode == 0, result.stderr
    ours = json.loads(result.stdout)
    for key in ("leafId", "thinkingLevel", "model", "messages", "llmMessages"):
        assert ours[key] == pi[key], key
    assert "duplicate id c3 at lines 4 and 6" in result.stderr
