"""An id format shown by example and given anew later (a template, or an example of other
parts) replaces the old format; an id said without an example word is no format."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules


@pytest.mark.parametrize(
    ("rule", "change"),
    [
        (
            "Purchase orders get ids like PO-2025-00017.",
            "finance wants the site in the id: PO-{site}-{year}-{n}",
        ),
        (
            "发货单号的格式 SHP_20250301_001，每天从 1 开始。",
            "单号里要加上仓库代码，例如 SHP_BJ_20250301_001。",
        ),
    ],
)
def test_a_format_given_anew_replaces_the_example(rule: str, change: str) -> None:
    ledger = ledger_of_said("Build the ordering module. " + rule, change)
    live = live_rules(ledger)
    assert rule not in live
    assert change in live


def test_an_id_without_an_example_word_is_no_format() -> None:
    rule = "This is for ticket OPS-5531, keep the branch name short."
    change = "branch names follow OPS-{ticket}-{slug}"
    assert rule in live_rules(ledger_of_said("Build the ordering module. " + rule, change))
