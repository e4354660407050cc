"""Chinese verbs of a change by degree ("缩短到", "提高到", "延长为") change a value as "改成"
does, and of a changed rule's clauses that tie on the words they share with the change, the
one holding a quantity of the change's unit is the one that changes ("赛季长度 28 天" of
"赛季长度 28 天，每个赛季结束把前 100 名写进归档表")."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules

GOAL = "给答题小程序做后端。"
RULE = "每局时长 90 秒，每局结束把前 10 名写进排行表 quiz_top。"


@pytest.mark.parametrize(
    "change",
    ["运营刚改了 每局缩短到 60 秒 下周生效", "每局时长延长为 120 秒，玩家反馈太赶"],
)
def test_a_change_by_degree_retires_the_old_value(change: str) -> None:
    rules = live_rules(ledger_of_said(GOAL, RULE, change))
    assert RULE not in rules
    assert change in rules


def test_the_clause_without_the_changed_quantity_stays() -> None:
    rules = live_rules(ledger_of_said(GOAL, RULE, "运营刚改了 每局缩短到 60 秒 下周生效"))
    assert "每局结束把前 10 名写进排行表 quiz_top" in rules
