"""A next step that changes a rule's value ("then move the backup to 03:15") is the rule's new
value: it retires the old one and stands as a constraint, not as a step a later one replaces."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules

GOAL = "Automate the lab's nightly jobs."


@pytest.mark.parametrize(
    ("rule", "step"),
    [
        ("The backup runs at 01:30.", "then change the backup to run at 03:15, 01:30 clashes"),
        ("Log retention is 7 days.", "next, log retention should be 30 days instead"),
        ("备份窗口从 01:30 开始", "然后 备份窗口 改成 03:15 开始，01:30 跟别的任务冲突"),
    ],
)
def test_a_step_that_changes_a_value_retires_the_rule(rule: str, step: str) -> None:
    ledger = ledger_of_said(GOAL, rule, step, "after that, write the restore runbook")
    rules = live_rules(ledger)
    assert rule not in rules
    assert step in rules
    steps = [f.text for f in ledger.live("next_step")]
    assert steps == ["after that, write the restore runbook"]


def test_a_step_with_a_change_cue_and_no_rule_is_still_a_step() -> None:
    ledger = ledger_of_said(GOAL, "The backup runs at 01:30.", "next, switch the CI to Buildkite")
    assert [f.text for f in ledger.live("next_step")] == ["next, switch the CI to Buildkite"]
    assert "The backup runs at 01:30." in live_rules(ledger)


def test_a_step_naming_only_a_format_changes_no_rule() -> None:
    first = "I'd like a script that reads the Moodle CSV export and totals the marks my way."
    step = "Next could you make it write a CSV the registry portal accepts: id,grade?"
    ledger = ledger_of_said("Grade the course.", first, step)
    assert first in live_rules(ledger)
    assert step in [f.text for f in ledger.live("next_step")]
