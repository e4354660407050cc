"""pi opens a session with pins, an unpin, a side branch and four compactions with the same
context as tether, and shows the pinned texts in its summary.

``fixtures/pins/pins.jsonl`` was written by tether (``fixtures/pins/build.py``);
``pins.pi.json`` is the real pi 0.73.1's ``context`` of it (the oracle), at the file's leaf and
at the side branch's tip.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.harness_helpers import run_tether

PINS = Path(__file__).parent / "fixtures" / "pins"
FIELDS = ("thinkingLevel", "model", "messages", "llmMessages")


def pi_context() -> dict[str, Any]:
    return json.loads((PINS / "pins.pi.json").read_text(encoding="utf-8"))


def tether_json(tmp_path: Path, *args: str) -> Any:
    done = run_tether(*args, "--json", home=tmp_path, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_pi_and_tether_build_the_same_context_at_the_leaf_and_on_the_side_branch(
    tmp_path: Path,
) -> None:
    pi = pi_context()
    file = str(PINS / "pins.jsonl")
    ours = tether_json(tmp_path, "session", "context", file)
    assert ours["leafId"] == pi["leaf"]["leafId"]
    side = tether_json(tmp_path, "session", "context", file, "--leaf", pi["meta"]["sideTip"])
    for name, theirs, mine in (("leaf", pi["leaf"], ours), ("side", pi["side"], side)):
        for field in FIELDS:
            assert mine[field] == theirs[field], f"{name}: {field} differs from pi"


def test_pi_shows_the_pins_in_force_verbatim_in_the_summary(tmp_path: Path) -> None:
    pi = pi_context()
    file = str(PINS / "pins.jsonl")
    in_force = tether_json(tmp_path, "session", "pins", file)
    meta = pi["meta"]
    assert [p["pinId"] for p in in_force] == [meta["pinById"], meta["laterPin"]]
    summary = pi["leaf"]["messages"][0]["summary"]
    pinned = summary[summary.index("## Pinned") :].split("\n\n<read-files>")[0]
    assert pinned == "## Pinned\n" + "\n".join(f"- {p['text']}" for p in in_force)
    assert summary.count("## Pinned") == 1
    # unpinned on the main branch, still in force (and shown by pi) on the side branch
    side = pi["side"]["messages"][0]["summary"]
    assert "Constraint: amounts are Decimal, never float." not in summary
    assert "Constraint: amounts are Decimal, never float.\nKeep money code" in side
    assert "Side branch only" in side and "Side branch only" not in summary
