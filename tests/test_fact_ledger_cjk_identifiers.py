"""An identifier written straight against Chinese characters, with no space around it
("服务器在10.0.0.5上", "工单号OPS-771", "配置在/srv/app.toml里"), is found as it is between
spaces: kept verbatim, and a later one of the same kind changes it."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules
from tether.builtin_plugins.memory.fact_ledger.hosts import locations
from tether.builtin_plugins.memory.fact_ledger.identifiers import identifiers

GOAL = "帮我写一个日志采集服务"


@pytest.mark.parametrize(
    ("sentence", "identifier"),
    [
        ("采集端跑在10.8.0.14上", "10.8.0.14"),
        ("提交信息里带上工单号OPS-771就行", "OPS-771"),
        ("配置放在/srv/collector/app.toml里面", "/srv/collector/app.toml"),
        ("启动前设置LOG_LEVEL=debug，别的不用管", "LOG_LEVEL=debug"),
    ],
)
def test_an_identifier_glued_to_chinese_stands_alone(sentence: str, identifier: str) -> None:
    assert identifier in [text for text, _subject in identifiers(sentence)]
    kept = [f.text for f in ledger_of_said(GOAL, sentence).live("identifier")]
    assert identifier in kept


def test_a_host_glued_to_chinese_is_a_location_and_moves() -> None:
    assert ("host", "10.8.0.14") in locations("采集端跑在10.8.0.14上")
    first, later = "采集端跑在10.8.0.14上", "采集端换到10.8.0.27上"
    rules = live_rules(ledger_of_said(GOAL, first, later))
    assert first not in rules and later in rules
