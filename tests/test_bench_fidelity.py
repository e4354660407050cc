"""Smoke test of ``bench/fidelity.py``: its ``--json`` output for one kind at k = 1."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "fidelity.py"
CATEGORIES = {"goal", "constraints", "decisions", "files", "error", "next_step", "pinned"}


def test_fidelity_json_k1_has_every_category_and_the_goal(tmp_path: Path) -> None:
    command = [sys.executable, str(BENCH), "--kinds", "invoices", "--max-k", "1", "--json"]
    done = subprocess.run(
        [*command, "--out", str(tmp_path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    (run,) = document["runs"]
    (row,) = run["kinds"]["invoices"]
    assert row["status"] == "compacted" and row["summarizer"] == "offline"
    assert set(row["found"]) == CATEGORIES and set(row["total"]) == CATEGORIES
    assert row["found"]["goal"] == row["total"]["goal"] == 1
    assert row["found"]["pinned"] == row["total"]["pinned"] == 1  # only via ## Pinned
    assert row["total"]["files"] == 7 and row["summaryChars"] > 0
    (summary,) = run["summary"]
    assert CATEGORIES <= set(summary) and summary["goal"] == 100.0
    assert (tmp_path / "invoices-1000.jsonl").is_file()
