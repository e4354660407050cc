"""A goal said as "what we want is…" (issue 23): the sentence is in the goal, in any language,
even after a polite opening that asks for help."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said
from tether.builtin_plugins.memory.fact_ledger.goal import goal_shown


@pytest.mark.parametrize(
    ("opening", "wanted"),
    [
        (
            "Hi! Could you help me with the billing job?",
            "What we want, at the end of the day, is partner invoices out within a day of "
            "month end, since right now they only go out after a week.",
        ),
        (
            "Morning. I need a hand with the importer.",
            "What I'm after is one command that reloads every feed, as only half reload now.",
        ),
        ("你好，想请你看一下库存服务。", "我们要的是每天早上自动生成库存报表，只需要看一眼。"),
    ],
)
def test_what_we_want_is_the_goal(opening: str, wanted: str) -> None:
    goal = ledger_of_said(f"{opening} {wanted} The repo is called stockd.").goal()
    assert goal is not None and wanted in goal.text


@pytest.mark.parametrize(
    ("opening", "labeled", "later", "new"),
    [
        (
            "hey, this repo is the nightly export job, runs on airflow.",
            "goal: turn raw clickstream JSON into hourly parquet rollups under s3://lake/r/v1",
            "actually write the rollups to s3://lake/r/v2 instead",
            "s3://lake/r/v2",
        ),
        (
            "你好，这个仓库是做日志清洗的，用 airflow 跑。",
            "目标：把 raw JSON 日志清洗成 parquet，输出到 s3://lake/clean/v1",
            "输出路径改成 s3://lake/clean/v2",
            "s3://lake/clean/v2",
        ),
    ],
)
def test_a_labeled_goal_is_in_the_goal_and_its_values_change(
    opening: str, labeled: str, later: str, new: str
) -> None:
    """A sentence labeled as the goal ("goal: …", "目标：…") is in the goal after an opening
    that only describes the repo; after a change of its value the goal is not shown as it
    was: without that sentence, or with a note of the change."""
    before = ledger_of_said(f"{opening} {labeled}")
    assert labeled in goal_shown(before)
    after = ledger_of_said(f"{opening} {labeled}", later)
    assert labeled not in goal_shown(after) or new in after.goal_note()  # never shown as is
    assert any(new in f.text for f in after.live())
