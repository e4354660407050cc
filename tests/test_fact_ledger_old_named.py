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


def test_the_old_number_restated_in_the_change_is_still_changed() -> None:
    rule = "The gateway is at 10.9.0.4, poll every 60 seconds, keep them in DuckDB."
    rules = live_rules(ledger_of_said(GOAL, rule, "轮询间隔改成 15 秒，60 秒太慢了"))
    assert not [r for r in rules if "60 seconds" in r], rules


def test_a_clause_naming_a_product_outlives_its_changed_sentence() -> None:
    first = "The gateway is at 10.9.0.4, poll every 60 seconds, keep them in DuckDB."
    ledger = ledger_of_said(GOAL, first, "the gateway moved, it's 10.9.0.8 now")
    rules = live_rules(ledger)
    assert first not in rules
    assert "keep them in DuckDB" in rules
    assert "poll every 60 seconds" in rules


def test_a_message_repeating_the_old_number_beside_the_new_changes_it() -> None:
    ledger = Ledger()
    old = ledger.new_fact("constraint", "samples every 30 seconds", "e1")
    said = "采样间隔改成 10 秒，30 秒太慢了"
    ledger.new_fact("constraint", said, "e2")
    retire_named_old(ledger, "e2", said, default_cues())
    assert not old.live
