"""Smoke tests of ``bench/fidelity.py``: its ``--json`` output for the offline summarizer at
k = 1, and for the llm summarizer against the loopback server that drops facts on purpose
(k = 1…4): with the summary gate every fact category stays at 100 %."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent.parent / "bench" / "fidelity.py"
CATEGORIES = {"goal", "constraints", "decisions", "files", "error", "next_step", "pinned"}


def bench(tmp_path: Path, *args: str) -> dict[str, Any]:
    command = [sys.executable, str(BENCH), *args, "--json", "--out", str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_fidelity_json_k1_has_every_category_and_the_goal(tmp_path: Path) -> None:
    document = bench(tmp_path, "--kinds", "invoices", "--max-k", "1", "--summarizer", "offline")
    (run,) = document["runs"]
    (row,) = run["kinds"]["invoices"]
    assert row["status"] == "compacted" and row["summarizer"] == "offline"
    assert row["gate"] == "passed"
    assert set(row["found"]) == CATEGORIES and set(row["total"]) == CATEGORIES
    assert row["found"]["goal"] == row["total"]["goal"] == 1
    assert row["found"]["pinned"] == row["total"]["pinned"] == 1  # only via ## Pinned
    assert row["total"]["files"] == 7 and row["summaryChars"] > 0
    (summary,) = run["summary"]
    assert CATEGORIES <= set(summary) and summary["goal"] == 100.0
    assert (tmp_path / "offline" / "invoices-1000.jsonl").is_file()


def test_llm_with_a_fact_dropping_server_keeps_every_fact_through_the_gate(
    tmp_path: Path,
) -> None:
    kinds = "invoices,web-api,pipeline"
    document = bench(tmp_path, "--kinds", kinds, "--max-k", "4", "--summarizer", "llm")
    (run,) = document["runs"]
    assert run["summarizer"] == "llm"
    for entry in run["summary"]:
        assert all(entry[c] == 100.0 for c in CATEGORIES), entry
        assert entry["summaryCharsMax"] <= run["summaryCap"]
    rows = [row for rows in run["kinds"].values() for row in rows]
    assert all(row["status"] == "compacted" for row in rows)
    verdicts = {row["gate"] for row in rows}
    assert {"retried", "carried_forward", "fallback"} <= verdicts  # the model did drop facts


def test_without_the_gate_the_dropping_server_loses_facts(tmp_path: Path) -> None:
    """The same run with the gate blocked (what pi would keep): facts are lost."""
    args = ("--kinds", "invoices,web-api,pipeline", "--max-k", "4", "--summarizer", "llm")
    document = bench(tmp_path, *args, "--no-gate")
    (run,) = document["runs"]
    last = run["summary"][-1]
    assert min(last[c] for c in CATEGORIES) < 100.0
    assert all(row["gate"] == "-" for rows in run["kinds"].values() for row in rows)
