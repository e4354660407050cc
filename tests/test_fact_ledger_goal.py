"""Which sentences of the opening message are the goal (issue 23): a setting said first is
not the goal when a later sentence asks for the work, in any language."""

from __future__ import annotations

import pytest

from tether.builtin_plugins.memory.fact_ledger import build_ledger


def _ledger(text: str):  # type: ignore[no-untyped-def]
    return build_ledger([{"role": "user", "content": [{"type": "text", "text": text}]}], ["u1"])


@pytest.mark.parametrize(
    ("setting", "task"),
    [
        ("The queue is at amqp://mq-7.lan:5672.", "We need to move the mailer onto it."),
        ("The repo is in /srv/shop.", "Task: migrate the cart service to Go 1.22."),
        ("缓存在 10.1.2.3:6379，代码在 /opt/shop 下面。", "把购物车改成异步写入。"),
        ("日志目录是 /var/log/shop。", "我们要把订单导出做成定时任务。"),
    ],
)
def test_a_setting_said_first_is_not_the_goal(setting: str, task: str) -> None:
    ledger = _ledger(f"{setting} {task}")
    goal = ledger.goal()
    assert goal is not None and goal.text == task
    assert setting in [f.text for f in ledger.live("constraint")]  # still a fact of its own


@pytest.mark.parametrize("hello", ["Morning.", "Hello there!", "您好！"])
def test_a_greeting_opening_the_message_is_not_the_goal(hello: str) -> None:
    task = "Move the ingest service into the monorepo build."
    goal = _ledger(f"{hello} {task} The ticket is INFRA-77.").goal()
    assert goal is not None and goal.text.startswith(task)
