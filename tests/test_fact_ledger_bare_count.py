"""A bare count ("6 shards", "5 replicas") given later is of the one thing counted so before,
even when its sentence says nothing else about it (issue 23: terse changes)."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said
from tether.builtin_plugins.memory.fact_ledger import Ledger
from tether.builtin_plugins.memory.fact_ledger.slots import counted_noun

GOAL = "Set up CI for the web app."


def live(ledger: Ledger) -> set[str]:
    return {f.text for f in ledger.live()}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("the e2e suite runs in 3 shards", "6 shards"),
        ("the api keeps 3 replicas", "ok. 5 replicas"),
    ],
)
def test_a_bare_count_replaces_the_earlier_count(old: str, new: str) -> None:
    ledger = ledger_of_said(GOAL, old, new)
    assert old not in live(ledger)


def test_a_report_beside_a_bare_count_changes_the_count_not_the_bound() -> None:
    bound, shards = (
        "the e2e suite must finish under 15 minutes",
        "the e2e suite runs in 3 shards",
    )
    ledger = ledger_of_said(GOAL, bound, shards, "e2e run took 19 minutes. 6 shards")
    assert bound in live(ledger) and shards not in live(ledger)


def test_a_count_said_of_something_else_stays() -> None:
    ledger = ledger_of_said(GOAL, "the api keeps 3 replicas", "the worker keeps 5 replicas")
    assert "the api keeps 3 replicas" in live(ledger)


@pytest.mark.parametrize(
    ("shape", "counted"),
    [("qty:shard", True), ("qty:replica", True), ("qty:px", False), ("qty:hz", False)],
)
def test_what_counts_things(shape: str, counted: bool) -> None:
    assert counted_noun(shape) is counted
