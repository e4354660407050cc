"""A change that switches to a new name ends the clause that only kept the old one (issue
23), but not a clause keeping a plain word, nor one whose name the change says again."""

from __future__ import annotations

from tests.ledger_helpers import ledger_of_said, live_rules

START = "Speed up the test pipeline."
FIRST = "Please keep the runners on Ubuntu20 for now, and keep pytest-xdist."


def test_the_clause_keeping_the_old_name_retires_too() -> None:
    later = "After all, we'll move to Ubuntu22 and switch to pytest-parallel, ops validated it."
    rules = live_rules(ledger_of_said(START, FIRST, later))
    assert not [rule for rule in rules if "xdist" in rule], rules
    assert later in rules


def test_a_clause_whose_name_is_said_again_stays() -> None:
    later = "After all, we'll move to Ubuntu22 and switch to uv, pytest-xdist runs fine there."
    rules = live_rules(ledger_of_said(START, FIRST, later))
    assert "keep pytest-xdist" in rules
