"""Times of day on a 24-hour clock are values of their own (issue 23): never a host and port,
a later time for the same job replaces the earlier one, a deadline is no run time."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules
from tether.builtin_plugins.memory.fact_ledger import default_cues
from tether.builtin_plugins.memory.fact_ledger.identifiers import identifier_spans
from tether.builtin_plugins.memory.fact_ledger.implicit import values


def test_a_clock_time_is_no_host_and_port() -> None:
    spans = identifier_spans("Back up db-2:5432 nightly at 01:15 and at 13:45.")
    assert [kind for *_, kind, _subject in spans] == ["hostport"]


@pytest.mark.parametrize(
    ("said", "time"),
    [
        ("The export should run nightly at 01:00 from the cron box.", "nightly at 01:00"),
        ("Schedule the cleanup on Fridays at 18:30.", "on Fridays at 18:30"),
        ("每天 02:00 跑一次对账。", "02:00"),
    ],
)
def test_a_clock_time_is_a_value_with_its_days(said: str, time: str) -> None:
    assert [(v.cls, v.text) for v in values(said, default_cues())] == [("clock", time)]


def test_a_time_after_before_is_a_deadline_not_a_run_time() -> None:
    said = values("The load has to finish before 05:30, no exceptions.", default_cues())
    assert not [v for v in said if v.cls == "clock"]


@pytest.mark.parametrize(
    "later",
    [
        "Hmm, the dump is slow; could you move it to 03:15 instead?",
        "Change of plan: run the backup on weekdays at 22:00 only.",
    ],
)
def test_a_later_clock_time_replaces_the_earlier_one(later: str) -> None:
    first = "And the backup should run nightly at 01:00 via cron."
    ledger = ledger_of_said("Set up backups for the wiki.", first, later)
    assert first not in live_rules(ledger)
    assert later in live_rules(ledger)


@pytest.mark.parametrize(
    ("said", "time"),
    [
        ("Rotate the keys every Monday at 04:10 UTC.", "every Monday at 04:10 UTC"),
        ("The snapshot is taken daily at 23:59:30.", "daily at 23:59:30"),
        ("Let's push it to 21:40.", "21:40"),
    ],
)
def test_a_clock_time_keeps_its_days_seconds_and_zone(said: str, time: str) -> None:
    assert [v.text for v in values(said, default_cues()) if v.cls == "clock"] == [time]


def test_a_bare_change_of_a_time_with_days_replaces_it() -> None:
    first = "Refresh the search index on Sundays at 03:00 UTC."
    ledger = ledger_of_said("Keep the search index fresh.", first, "make that 05:30 UTC")
    assert first not in live_rules(ledger)
