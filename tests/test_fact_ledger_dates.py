"""Dates change as whole values (issue 23, item 2): a release date or a deadline moved later
retires the old one; dates of two things both stay."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The launch date is 2025-06-02.", "marketing pushed the launch, it's 2025-06-16 now"),
        ("The demo for the board is on March 7.", "board moved the demo to March 14"),
        ("合同到期日是 9月30日。", "合同到期日延到 10月31日了"),
    ],
)  # fmt: skip
def test_a_date_moved_later_retires_the_old_one(old: str, new: str) -> None:
    ledger = ledger_of_said("Prepare the release notes.", old, new)
    assert old not in live_rules(ledger)
    assert new in live_rules(ledger)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The launch date is 2025-06-02.", "The audit is due 2025-07-01."),
        ("The staging cutover is March 3.", "The prod cutover is March 10."),
        ("Pin the tool at 2024.1.2.", "Pin the linter at 2024.3.1."),
    ],
)  # fmt: skip
def test_dates_of_two_things_both_stay(first: str, second: str) -> None:
    ledger = ledger_of_said("Prepare the release notes.", first, second)
    assert {first, second} <= live_rules(ledger)
