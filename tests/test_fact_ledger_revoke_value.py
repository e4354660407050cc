"""A take-back that gives another value (issue 23): "scratch that, … at 19:00" retires the
clause that stated the old value, not only the clause whose words it repeats."""

from __future__ import annotations

from tests.ledger_helpers import ledger_of_said, live_rules


def test_a_revoke_with_a_new_value_retires_the_old_value_clause() -> None:
    later = (
        "And the timing: scratch that, the uploader only matters on weekdays now, "
        "so run it weekdays at 19:00 only."
    )
    ledger = ledger_of_said(
        "Keep the photo library in sync.",
        "And the sync should run nightly at 01:00 via cron.",
        "Oh, sorry, the uploader is slow — could you move it to 22:15 instead?",
        later,
    )
    rules = live_rules(ledger)
    assert not [rule for rule in rules if "22:15" in rule or "01:00" in rule], rules
    assert later in rules
