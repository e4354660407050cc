"""Schedules change as whole values (issue 23, item 2): a schedule the goal states, changed
later, is named whole in the goal's note ("0 2 * * *" changed to "30 3 * * *"), never number
by number."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said


@pytest.mark.parametrize(
    ("goal", "change", "old", "new"),
    [
        (
            "Add a purge job to the scheduler with cron 15 1 * * * after the nightly ETL.",
            "the ETL got longer, change the cron to 45 4 * * *",
            "15 1 * * *",
            "45 4 * * *",
        ),
        (
            "写一个对账任务，每天早上 6 点跑。",
            "6 点数据还没到齐，改到早上 8 点半",
            "每天早上 6 点",
            "早上 8 点半",
        ),
    ],
)  # fmt: skip
def test_a_goal_schedule_changed_later_is_named_whole(
    goal: str, change: str, old: str, new: str
) -> None:
    ledger = ledger_of_said(goal, change)
    assert ledger.goal_changes() == {old: new}
    assert f'"{old}" changed to "{new}"' in ledger.goal_note()
