"""A limit is not changed by a measurement of it (issue 23: a target said once stays live
when a later message reports how far off it is), in English and Chinese; a new bound, or a
change cue, still changes it."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said
from tether.builtin_plugins.memory.fact_ledger import Ledger
from tether.builtin_plugins.memory.fact_ledger.bounds import states_bound

GOAL = "Set up the nightly build for the game client."


def live(ledger: Ledger) -> set[str]:
    return {f.text for f in ledger.live()}


@pytest.mark.parametrize(
    ("bound", "measure"),
    [
        ("the full build must stay under 25 minutes", "the full build took 31 minutes"),
        ("the installer is at most 300MB", "the installer came out at 340MB"),
        ("冷启动必须 2 秒以内", "实测冷启动是 2.6 秒"),
        ("包体不超过 300MB", "打出来的包体实测 340MB"),
    ],
)
def test_a_measure_leaves_the_bound_live(bound: str, measure: str) -> None:
    ledger = ledger_of_said(GOAL, bound, measure)
    assert bound in live(ledger)


@pytest.mark.parametrize(
    ("bound", "change"),
    [
        ("the full build must stay under 25 minutes", "make it under 40 minutes"),
        ("the installer is at most 300MB", "the installer is allowed 500MB now"),
        ("冷启动必须 2 秒以内", "冷启动上限改成 3 秒"),
    ],
)
def test_a_new_bound_or_a_cued_change_still_replaces_it(bound: str, change: str) -> None:
    ledger = ledger_of_said(GOAL, bound, change)
    assert bound not in live(ledger) and change in live(ledger)


def test_a_setting_without_a_report_still_replaces_a_bound() -> None:
    ledger = ledger_of_said(GOAL, "the cache is capped at 512MB", "1 GB of cache, misses hurt")
    assert "the cache is capped at 512MB" not in live(ledger)


@pytest.mark.parametrize(
    ("text", "bound"),
    [
        ("keep p99 below 200 ms", True),
        ("no more than 3 retries", True),
        ("延迟 200ms 以内", True),
        ("the p99 is 240 ms", False),
        ("run it with 4 workers", False),
        ("keep the build under control", False),  # no number to bound
    ],
)
def test_what_states_a_bound(text: str, bound: bool) -> None:
    assert states_bound(text) is bound


def test_a_report_on_a_bound_still_changes_another_value_it_gives() -> None:
    ledger = ledger_of_said(
        GOAL,
        "the full build must stay under 25 minutes",
        "the build cache holds 2GB",
        "the full build took 31 minutes, the build cache holds 6GB",
    )
    assert "the full build must stay under 25 minutes" in live(ledger)
    assert "the build cache holds 2GB" not in live(ledger)
