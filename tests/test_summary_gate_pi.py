"""pi opens a session whose compactions went through the summary gate with the same context
as tether: ``details.gate`` (and the carried-forward block) change nothing for pi. The golden
``gated-compactions.pi-context.json`` is the pi oracle's ``context`` output for the fixture
(two gated compactions: ``carried_forward`` twice, the second from ``details.gate.carry``)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.harness_helpers import NO_THIRD_PARTY
from tests.store_helpers import run_tether
from tests.test_context_golden import assert_same_context

FIXTURES = Path(__file__).parent / "fixtures" / "gate"
FILE = FIXTURES / "gated-compactions.jsonl"
GOLDEN = FIXTURES / "gated-compactions.pi-context.json"


def test_the_fixture_holds_gated_compactions() -> None:
    entries = [json.loads(line) for line in FILE.read_text(encoding="utf-8").splitlines()]
    gates = [e["details"]["gate"] for e in entries if e.get("type") == "compaction"]
    assert [g["verdict"] for g in gates] == ["carried_forward", "carried_forward"]
    assert all("carry" in g for g in gates)


def test_context_of_a_gated_session_equals_pis() -> None:
    done = run_tether("session", "context", str(FILE), "--json", env=NO_THIRD_PARTY)
    assert done.returncode == 0, done.stderr
    pi = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert_same_context(json.loads(done.stdout), pi)
    assert "## Carried Forward (restored by the summary gate)" in pi["messages"][0]["summary"]
