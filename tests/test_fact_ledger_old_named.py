"""A message naming a rule's old number beside a new one of its unit changes the rule, with no
cue word: "writing every 800 eats my quota, every 6000 steps is plenty"."""

from __future__ import annotations

from tests.ledger_helpers import ledger_of_said, live_rules
from tether.builtin_plugins.memory.fact_ledger.cues import default_cues
from tether.builtin_plugins.memory.fact_ledger.ledger import Ledger
from tether.builtin_plugins.memory.fact_ledger.oldnamed import retire_named_old

GOAL = "Run the simulations."
RULE = "cfd settings: timestep 5 fs with upwind scheme, write snapshots every 800 steps"
LATER = (
    "also writing every 800 is eating my disk quota, every 6000 steps is plenty for what we plot"
)


def test_the_old_number_said_beside_a_new_one_changes_the_rule() -> None:
    rules = live_rules(ledger_of_said(GOAL, RULE, LATER))
    assert RULE not in rules
    assert LATER in rules
    assert "cfd settings: timestep 5 fs with upwind scheme" in rules  # not what it changes


def test_only_the_rule_whose_number_is_named_changes() -> None:
    ledger = Ledger()
    old = ledger.new_fact("constraint", "keep 30 days of logs", "e1")
    other = ledger.new_fact("constraint", "keep 90 days of audit records", "e2")
    ledger.new_fact("constraint", "30 is too long for the disk, 7 days will do", "e3")
    retire_named_old(ledger, "e3", "30 is too long for the disk, 7 days will do", default_cues())
    assert not old.live
    assert other.live


def test_a_rule_with_two_numbers_of_the_unit_or_another_unit_is_left_alone() -> None:
    ledger = Ledger()
    two = ledger.new_fact("constraint", "3 replicas for the API, 2 replicas for the worker", "e1")
    unit = ledger.new_fact("constraint", "checkpoint every 200 steps", "e2")
    said = "3 is a lot, 1 replicas on staging; the 200 run took 40 minutes"
    ledger.new_fact("constraint", said, "e3")
    retire_named_old(ledger, "e3", said, default_cues())
    assert two.live and unit.live
