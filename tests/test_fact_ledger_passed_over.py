"""Picking one of the assistant's listed options passes over the others: an earlier rule
naming a tool or library only an option not picked names is replaced by the pick (issue 23:
what the user accepts of the assistant's proposals), in English and Chinese."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_turns

CASES = [
    (
        "Build the thumbnail worker.",
        "thumbnails come from node-canvas for now.",
        "I see two ways:\n1) keep node-canvas in process\n2) call libvips through sharp-cli in "
        "a sidecar\nWhich one do you want?",
        "2",
    ),
    (
        "帮我做预约提醒服务。",
        "提醒先用 node-cron 每 5 分钟扫一遍。",
        "有两个方案：\n1) 继续用 node-cron 轮询\n2) 每个预约用 BullMQ 建一个延迟任务\n选哪个？",
        "2",
    ),
]


@pytest.mark.parametrize(("goal", "rule", "offer", "reply"), CASES)
def test_a_rule_naming_only_a_passed_over_option_retires(
    goal: str, rule: str, offer: str, reply: str
) -> None:
    ledger = ledger_of_turns(("user", goal), ("user", rule), ("assistant", offer), ("user", reply))
    live = {f.text for f in ledger.live()}
    assert rule not in live
    assert any("sharp-cli" in t or "BullMQ" in t for t in live)


def test_a_rule_naming_a_tool_both_options_name_stays() -> None:
    offer = (
        "Two ways:\n1) run node-canvas in process\n2) run node-canvas in a sidecar\n"
        "Which one do you want?"
    )
    rule = "thumbnails come from node-canvas for now."
    ledger = ledger_of_turns(
        ("user", "Build the thumbnail worker."),
        ("user", rule),
        ("assistant", offer),
        ("user", "2"),
    )
    assert rule in {f.text for f in ledger.live()}
