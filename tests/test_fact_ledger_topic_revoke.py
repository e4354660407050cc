"""A take-back that opens with its topic (issue 23): "钉钉那个不要了，不再发" ends the one
earlier rule naming that thing, with its details; two such rules leave it unclear."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules

KEPT = "日志保留 30 天。"


@pytest.mark.parametrize(
    ("rule", "revoke"),
    [
        ("每周一把周报发到钉钉群里，群号 4471。", "钉钉那个不要了，不再发，大家直接看仪表盘。"),
        ("推送走邮件，收件人 ops@example.org。", "邮件这个不要了，不再发。"),
    ],
)
def test_the_topic_of_a_revoke_ends_the_rule_naming_it(rule: str, revoke: str) -> None:
    ledger = ledger_of_said("维护运维周报。", rule, KEPT, revoke)
    rules = live_rules(ledger)
    assert not [r for r in rules if "4471" in r or "ops@" in r], rules
    assert KEPT in rules


def test_a_topic_two_rules_name_retires_neither() -> None:
    first, second = "周报发到钉钉群里。", "告警也推到钉钉。"
    ledger = ledger_of_said("维护运维周报。", first, second, "钉钉那个不要了，不再发。")
    assert {first, second} <= live_rules(ledger)
