"""A change that says what it replaces (issue 23) is never taken for a remark on the old
value, however the new value is written ("switch to msgspec instead of uJSON")."""

from __future__ import annotations

from tests.ledger_helpers import ledger_of_said, live_rules


def test_a_change_naming_what_it_replaces_stays_live() -> None:
    first = "encode the events with uJSON for now, the client already reads it"
    later = "the team benchmarked it, so switch to msgspec instead of uJSON, it is far faster."
    ledger = ledger_of_said("Speed up the event encoder.", first, later)
    assert later in live_rules(ledger)
    assert first not in live_rules(ledger)
