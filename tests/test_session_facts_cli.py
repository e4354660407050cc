"""``tether session facts`` and ``session pin FILE FACT_ID`` as real subprocesses (issue 23,
item 6): live facts with their entries, ``--all`` with what replaced a retired one."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.harness_helpers import run_tether
from tests.ledger_helpers import compactions, write_turns

TURNS = [
    "Build a small exporter for the billing data.",
    "Use port 8000 for the dev server.",
    "Switch to port 9000 for the dev server instead.",
    "日志只输出到 stderr。",
]


def tether(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_tether(*args, home=cwd / "home", cwd=cwd)


def test_facts_lists_live_ones_and_all_shows_what_replaced_them(tmp_path: Path) -> None:
    file = tmp_path / "s.jsonl"
    write_turns(file, TURNS)
    compactions(file, 1)
    done = tether(tmp_path, "session", "facts", str(file), "--json")
    assert done.returncode == 0, done.stderr
    facts = {f["text"]: f for f in json.loads(done.stdout)["facts"]}
    assert "Use port 8000 for the dev server." not in facts
    new = facts["Switch to port 9000 for the dev server instead."]
    assert new["kind"] in ("constraint", "decision") and new["status"] == "live" and new["source"]
    assert facts["日志只输出到 stderr。"]["kind"] == "constraint"
    everything = json.loads(
        tether(tmp_path, "session", "facts", str(file), "--json", "--all").stdout
    )
    old = next(f for f in everything["facts"] if f["text"] == "Use port 8000 for the dev server.")
    assert old["status"] == "retired" and old["replacedBy"] == new["id"]
    text = tether(tmp_path, "session", "facts", str(file), "--all").stdout
    assert f"[retired → {new['id']}]" in text and "日志只输出到 stderr。" in text
    # pin a fact by its id: its words, verbatim
    pinned = tether(tmp_path, "session", "pin", str(file), new["id"])
    assert pinned.returncode == 0, pinned.stderr
    assert "Switch to port 9000 for the dev server instead." in pinned.stdout
    refused = tether(tmp_path, "session", "pin", str(file), old["id"])
    assert refused.returncode != 0 and f"replaced by {new['id']}" in refused.stderr
    assert "Traceback" not in refused.stderr and len(refused.stderr.strip().splitlines()) == 1


def test_facts_of_a_missing_file_is_one_line(tmp_path: Path) -> None:
    done = tether(tmp_path, "session", "facts", str(tmp_path / "nope.jsonl"))
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
