"""Which sentences of the opening message are the goal (issue 23): a setting said first is
not the goal when a later sentence asks for the work, in any language."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said
from tether.builtin_plugins.memory.fact_ledger import build_ledger
from tether.builtin_plugins.memory.fact_ledger.goal import goal_shown


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
    ledger = ledger_of_said(f"{setting} {task}")
    goal = ledger.goal()
    assert goal is not None and goal.text == task
    assert setting in [f.text for f in ledger.live("constraint")]  # still a fact of its own


@pytest.mark.parametrize("hello", ["Morning.", "Hello there!", "您好！"])
def test_a_greeting_opening_the_message_is_not_the_goal(hello: str) -> None:
    task = "Move the ingest service into the monorepo build."
    goal = ledger_of_said(f"{hello} {task} The ticket is INFRA-77.").goal()
    assert goal is not None and goal.text.startswith(task)


def test_the_sentence_after_a_greeting_is_never_cut_from_the_goal() -> None:
    """A greeting of a script without spaces ("お疲れ様です。") is no goal sentence either, so
    the task after it leads the goal and a later value does not cut it out."""
    task = "経費精算アプリ（今は VM 2台）を AWS に載せ替えたいです。"
    ledger = build_ledger(
        [
            {"role": "user", "content": f"お疲れ様です。{task}リポジトリは infra-keihi です。"},
            {"role": "user", "content": "PostgreSQL 13 です。"},
        ],
        ["u1", "u2"],
    )
    assert task in goal_shown(ledger)


@pytest.mark.parametrize(
    "stated",
    [
        "这次的目标就是把支付链路理清楚，月底前能让对账只读汇总层。",
        "The goal here is a checkout that survives a region outage.",
    ],
)
def test_a_goal_stated_as_such_is_in_the_goal(stated: str) -> None:
    goal = ledger_of_said(f"Context first: the cluster runs Hive 3.1. {stated}").goal()
    assert goal is not None and stated in goal.text


@pytest.mark.parametrize(
    ("opening", "goal"),
    [
        (
            "writing a price tracker for second-hand cameras. Daily scrape, alerts by email.",
            "writing a price tracker for second-hand cameras. Daily scrape, alerts by email.",
        ),
        (
            "做一个家庭相册的备份脚本。增量备份，带校验。",
            "做一个家庭相册的备份脚本。增量备份，带校验。",
        ),
    ],
)
def test_short_sentences_that_go_on_describing_the_goal_are_the_goal(
    opening: str, goal: str
) -> None:
    ledger = ledger_of_said(opening)
    assert ledger.goal() is not None and ledger.goal().text == goal


def test_a_rule_after_the_goal_sentence_stays_a_rule() -> None:
    ledger = ledger_of_said("writing a price tracker for cameras. Never scrape more than hourly.")
    assert (
        ledger.goal() is not None and ledger.goal().text == "writing a price tracker for cameras."
    )
    assert "Never scrape more than hourly." in [f.text for f in ledger.live("constraint")]


def test_a_sentence_with_its_own_subject_after_the_goal_stays_a_rule() -> None:
    ledger = ledger_of_said("Speed up the report job. The job reads from the archive DB.")
    assert "The job reads from the archive DB." in [f.text for f in ledger.live("constraint")]
