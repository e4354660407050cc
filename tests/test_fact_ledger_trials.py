"""A change asked for only if something holds ("try X and make it the default if it's
faster") is a trial, not yet a rule (issue 23): the later decision decides, and the trial's
value is never shown as a current rule."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules

GOAL = "We are building a storage engine for the metrics service."


@pytest.mark.parametrize(
    ("trial", "decision"),
    [
        (
            "try zstd and make it the default codec if it beats lz4",
            "We'll keep lz4 as the default codec, zstd only behind --codec.",
        ),
        (
            "try -O2 on the hot loop and make that the release default if the binary shrinks",
            "Release builds stay on -Os, -O2 only for the benchmarks.",
        ),
    ],
)
def test_a_conditional_change_is_no_rule(trial: str, decision: str) -> None:
    ledger = ledger_of_said(GOAL, trial, decision)
    assert [f.kind for f in ledger.facts if f.text == trial] == ["request"]
    assert any(decision in rule for rule in live_rules(ledger))


def test_an_unconditional_change_is_still_a_rule() -> None:
    ledger = ledger_of_said(GOAL, "try zstd and make it the default codec")
    assert [f.kind for f in ledger.facts if "zstd" in f.text] == ["constraint"]
