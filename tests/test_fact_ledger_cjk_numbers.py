"""A number written straight against Chinese characters ("最多7节课", "超时30秒") is a value
like a spaced one: a later sentence giving it another number changes it."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules
from tether.builtin_plugins.memory.fact_ledger.slots import slots

GOAL = "帮我写一个仓库盘点脚本"


@pytest.mark.parametrize(
    ("text", "value"),
    [("每批最多500条记录", "500条"), ("每天最多7节课", "7"), ("重试间隔15秒", "15秒")],
)
def test_a_number_between_chinese_characters_is_a_slot(text: str, value: str) -> None:
    assert value in [slot.text for slot in slots(text)]


def test_a_version_or_name_with_digits_is_no_bare_number() -> None:
    assert not [s for s in slots("用 x86_64 和 abc12 编译") if s.shape == "num"]


@pytest.mark.parametrize(
    ("first", "later"),
    [
        ("每批最多500条记录；失败的批次写到 failed/ 目录", "仓库那边说了，每批最多200条记录。"),
        ("扫码枪超时15秒", "扫码枪超时改成40秒吧"),
    ],
)  # fmt: skip
def test_a_glued_number_said_again_with_another_value_retires_the_old(
    first: str, later: str
) -> None:
    rules = live_rules(ledger_of_said(GOAL, first, later))
    assert first not in rules
    assert later in rules
    if "；" in first:  # the other clause of the old rule stays in force
        assert "失败的批次写到 failed/ 目录" in rules
