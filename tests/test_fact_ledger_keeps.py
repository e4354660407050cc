"""False retirements a change must not make (issue 23, item 2): a fact stating the very
setting a change sets, a version pin of a thing the change only uses, and every fact naming
a common noun said to be "dead" elsewhere."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules


@pytest.mark.parametrize(
    ("kept", "later"),
    [
        (
            "Keep auto_merge: false on the release branch, humans merge releases.",
            "scratch the bot idea, back to auto_merge: false like before",
        ),
        (
            "The site runs Django 4.2 with HTMX 1.9, no SPA.",
            "use HTMX polling for the status badge instead",
        ),
        (
            "The web app calls the gateway at gw-1.pay.internal with a 5s timeout.",
            "the tablet layout is simpler now that the old mobile app is dead",
        ),
    ],
)  # fmt: skip
def test_a_fact_the_change_does_not_change_stays(kept: str, later: str) -> None:
    ledger = ledger_of_said("Keep the billing service running.", kept, later)
    assert kept in live_rules(ledger)


def test_a_named_thing_gone_still_retires_what_names_it() -> None:
    ledger = ledger_of_said(
        "Keep the billing service running.", "Ship metrics to statsd.", "statsd is gone"
    )
    assert "Ship metrics to statsd." not in live_rules(ledger)


def test_numbers_joined_by_a_chinese_conjunction_name_no_subject() -> None:
    first = "只统计 Lager 10 和 20，30 号仓库是外包的"
    ledger = ledger_of_said(
        "做库存报表。",
        first,
        "数量那一列用件数就行，重量不用，反正 10 和 20 都是按件管理",
    )
    assert first in {f.text for f in ledger.live()}


@pytest.mark.parametrize(
    ("rule", "change", "remark"),
    [
        (
            "Times in the report as 24h clock please, the ops team prefers it.",
            "switch the report times to 12h with am/pm, the client asked",
            "the ops team prefers it",
        ),
        ("导出文件用 GBK 编码，财务那边习惯这样。", "导出编码改成 UTF-8。", "财务那边习惯这样"),
    ],
)  # fmt: skip
def test_a_remark_pointing_back_at_a_changed_rule_retires_with_it(
    rule: str, change: str, remark: str
) -> None:
    ledger = ledger_of_said("Build the report export.", rule, change)
    shown = {f.text for f in ledger.live()}
    assert remark not in shown
    assert change in shown


def test_a_clause_with_a_value_or_a_prohibition_of_its_own_stays() -> None:
    ledger = ledger_of_said(
        "Build the report export.",
        "Times in the report as 24h clock, keep it under 2 MB.",
        "switch the report times to 12h with am/pm",
    )
    assert "keep it under 2 MB" in {f.text for f in ledger.live()}
