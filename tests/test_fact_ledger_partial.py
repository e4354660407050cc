"""A take-back narrowed by a qualifier keeps the rule it narrows (issue 23's hostile review:
"Coverage: no longer needed on PR builds, only on main" retired the whole Codecov rule)."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules
from tether.builtin_plugins.memory.fact_ledger.partial import partial_take_back

GOAL = "Keep the CI of the SDK tidy."


@pytest.mark.parametrize(
    ("rule", "later"),
    [
        (
            "Upload test reports to Allure on every build.",
            "Reports: no longer needed on draft builds, only on release",
        ),
        (
            "Use Memcached for page fragments and rate limits.",
            "we no longer need Memcached for rate limits",
        ),
    ],
)
def test_a_narrower_take_back_keeps_the_rule(rule: str, later: str) -> None:
    rules = live_rules(ledger_of_said(GOAL, rule, later))
    assert rule in rules
    assert later in rules


@pytest.mark.parametrize(
    ("rule", "later"),
    [
        ("Post a Teams message on each release.", "No more Teams messages on release."),
        ("Use Memcached for page fragments.", "we no longer need Memcached for page fragments"),
    ],
)
def test_a_take_back_of_the_whole_still_ends_it(rule: str, later: str) -> None:
    assert rule not in live_rules(ledger_of_said(GOAL, rule, later))


def test_a_qualifier_about_something_else_is_no_narrowing() -> None:
    assert not partial_take_back("no longer needed for the docs", "Run mypy on every push.")


def test_a_take_back_that_says_what_stays_keeps_the_rule() -> None:
    rule = "keep the data in InfluxDB"
    later = "InfluxDB: no longer needed for the raw samples, only for the hourly means"
    rules = live_rules(ledger_of_said(GOAL, rule, later))
    assert rule in rules
    assert later in rules
