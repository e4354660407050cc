"""A change naming only its value ("make that 18:30", "改成 6 点吧"), maybe with a reason
after it: it changes the latest rule of its value's class, or notes the change on the next
step that just stated one (the step's task stays next)."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules
from tether.builtin_plugins.memory.fact_ledger.cues import default_cues
from tether.builtin_plugins.memory.fact_ledger.implicit import values
from tether.builtin_plugins.memory.fact_ledger.notes import fact_note


@pytest.mark.parametrize(
    ("step", "change", "old", "new"),
    [
        (
            "Next, schedule the backup export every night at 01:15 UTC.",
            "oh make that 04:45 UTC, the replica is busy at 2 with reindexing",
            "01:15 UTC",
            "04:45 UTC",
        ),
        (
            "next step: ship the weekly digest email at 9am",
            "actually make it 7am, people read it on the train",
            "9am",
            "7am",
        ),
    ],
)
def test_a_bare_change_after_a_next_step_is_noted_on_the_step(
    step: str, change: str, old: str, new: str
) -> None:
    ledger = ledger_of_said("Build the reporting service.", step, change)
    [live_step] = ledger.live("next_step")
    assert live_step.text == step  # its task is still next, verbatim
    assert f"{old} changed to {new}" in fact_note(ledger, live_step)


def test_a_bare_change_with_a_reason_changes_the_latest_rule_of_its_class() -> None:
    ledger = ledger_of_said(
        "Harden the sync client.",
        "Retry failed uploads 3 times.",
        "hmm make it 6 times, the VPN drops a lot",
    )
    assert "Retry failed uploads 3 times." not in live_rules(ledger)


def test_a_rule_said_after_the_step_takes_the_change() -> None:
    ledger = ledger_of_said(
        "Build the reporting service.",
        "next: wire the export job at 10pm",
        "The cleanup job runs at 11pm.",
        "make it 11:30pm",
    )
    assert "The cleanup job runs at 11pm." not in live_rules(ledger)
    [step] = ledger.live("next_step")
    assert not fact_note(ledger, step)


@pytest.mark.parametrize(
    ("text", "schedule"),
    [("run it at 14:15 UTC", "at 14:15 UTC"), ("cron fires at 7:05", "at 7:05")],
)
def test_a_clock_time_is_one_value_of_its_own_class(text: str, schedule: str) -> None:
    found = values(text, default_cues())
    assert [(v.text, v.cls) for v in found] == [(schedule, "clock")]


@pytest.mark.parametrize("text", ["cache at redis-01:6379", "built 2024-05-20T10:02:14Z"])
def test_a_host_port_or_timestamp_is_no_clock_time(text: str) -> None:
    assert all(v.cls != "clock" for v in values(text, default_cues()))
