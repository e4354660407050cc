"""Measures written as one hyphenated word, and numbers taken back alone (issue 23).

"a 30-day retention window" states 30 days as much as "retention: 30 days" does, but only of
its retention: a sibling's measure ("Blink: 15-second cooldown") is another rule. "scratch
the 5, replicaCount: 2 is enough" takes back the one rule of five replicas; "do 1 and 3,
forget the 2" takes back a list's item, no rule."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, ledger_of_turns, live_rules

START = "We're tuning the nightly data jobs."


@pytest.mark.parametrize(
    ("rule", "change", "new"),
    [
        ("Keep a 30-day retention window.", "retention: 14 days", "14 days"),
        ("Use a 5-minute timeout on the sync.", "sync timeout of 90 seconds", "90 seconds"),
        ("Train on a 3-year history.", "use a 5-year history", "5-year"),
        (
            "Fetch from the vendor feed, 7-day lookback, daily refresh.",
            "lookback: 21 days, not a week",
            "21 days",
        ),
    ],
)
def test_a_hyphenated_measure_is_changed_like_a_spaced_one(
    rule: str, change: str, new: str
) -> None:
    ledger = ledger_of_said(START, rule, change)
    live = live_rules(ledger)
    assert rule not in live
    assert any(new in text for text in live)


def test_the_other_clauses_of_a_changed_measure_stay() -> None:
    rule = "Fetch from the vendor feed, 7-day lookback, daily refresh."
    live = live_rules(ledger_of_said(START, rule, "lookback: 21 days"))
    assert "Fetch from the vendor feed" in live
    assert "daily refresh" in live


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Use a 3-way merge for the config files.", "use a 2-way merge for the lock files"),
        ("Follow the 12-factor layout.", "Keep a 2-space indent."),
    ],
)
def test_a_hyphenated_word_that_is_no_measure_changes_nothing(first: str, second: str) -> None:
    assert first in live_rules(ledger_of_said(START, first, second))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Session cookies get a 12-hour expiry.", "Remember-me cookies last 30 days."),
        ("Devices check in every 5 minutes.", "Devices go offline after a 15-minute silence."),
        ("Use a 24-hour clock in the header.", "The header clock refreshes every 1 second."),
        ("Tokens have a 1-hour TTL.", "Refresh tokens last 30 days."),
        ("Customer data is deleted after 2 years.", "Customer data exports expire after 7 days."),
        ("Training data: 3 years of transactions.", "Archive transactions after 18 months."),
        ("Plans come in 1-year and 3-year terms.", "Plans auto-renew 7 days before expiry."),
    ],
)
def test_durations_of_two_things_stay_two_rules(first: str, second: str) -> None:
    assert {first, second} <= live_rules(ledger_of_said(START, first, second))


def test_a_number_taken_back_alone_ends_the_one_rule_of_it() -> None:
    rule = "give it 8 workers while the backfill runs"
    ledger = ledger_of_said(START, rule, "backfill's done. scratch the 8, workers: 3 is plenty")
    assert rule not in live_rules(ledger)


@pytest.mark.parametrize(
    "second",
    ["Keep 8 days of logs.", "Pin the client at 8.2.1 for now."],
)
def test_the_key_after_a_lone_number_says_which_rule_it_takes_back(second: str) -> None:
    rule = "give it 8 workers while the backfill runs"
    live = live_rules(ledger_of_said(START, rule, second, "drop the 8, workers: 3"))
    assert rule not in live and second in live  # 8 days, 8.2.1: not the workers' 8


@pytest.mark.parametrize(
    ("rule", "offer", "reply"),
    [
        (
            "Use 2 spaces for indentation.",
            "I'd propose: 1. split utils.py 2. rename the models module 3. add hints. Which?",
            "Do 1 and 3, forget the 2.",
        ),
        (
            "Use 3 replicas for the frontend.",
            "Plan: step 1 build images, step 2 write charts, step 3 set up ArgoCD.",
            "Never mind the 3, we'll do ArgoCD later.",
        ),
    ],
)
def test_a_list_item_taken_back_by_number_ends_no_rule(rule: str, offer: str, reply: str) -> None:
    ledger = ledger_of_turns(("user", START), ("user", rule), ("assistant", offer), ("user", reply))
    assert rule in live_rules(ledger)


@pytest.mark.parametrize(
    ("rule", "offer", "reply"),
    [
        (
            "Use 2 spaces for indentation.",
            "I'd propose: 1. split utils.py 2. rename the models module 3. add hints. Which?",
            "Drop the 2, 1 and 3 are fine.",
        ),
        (
            "Refresh the charts every 3 minutes.",
            "Candidate charts: 1 revenue, 2 churn, 3 cohort heatmap, 4 funnel.",
            "scrap the 3, keep 1, 2 and 4",
        ),
        (
            "每个服务跑 3 个副本。",
            "建议：1. 拆分 utils 2. 加类型注解 3. 补单元测试。要做哪些？",
            "去掉 3，先做 1 和 2。",
        ),
        (
            "Run the tests on 4 shards.",
            "There are three open PRs touching CI: #3, #4 and #5.",
            "Never mind the 4, PR 5 supersedes it.",
        ),
    ],
)
def test_a_list_item_first_in_the_reply_ends_no_rule(rule: str, offer: str, reply: str) -> None:
    ledger = ledger_of_turns(("user", START), ("user", rule), ("assistant", offer), ("user", reply))
    assert rule in live_rules(ledger)


def test_a_number_taken_back_for_a_count_of_the_same_thing_ends_the_rule() -> None:
    rule = "give it 8 workers while the backfill runs"
    ledger = ledger_of_said(START, rule, "backfill's done. scratch the 8, 3 workers will do")
    assert rule not in live_rules(ledger)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Fireball has an 8-second cooldown.", "Blink: 15-second cooldown."),
        (
            "Fireball has an 8-second cooldown.",
            "- Blink: 15-second cooldown\n- Ward: 20-second cooldown",
        ),
        ("Train set: 12-month window.", "Test set: 1-month window."),
        ("Pods get a 30-second grace period.", "Jobs: 5-minute grace period"),
        ("SLA is 4-hour response for P1.", "P2: 1-day response"),
        ("P1 incidents get a 15-minute response SLA.", "P3: 1-day response SLA"),
        ("New signups get a 14-day trial.", "Enterprise leads get a 30-day trial instead."),
    ],
)
def test_a_labelled_sibling_measure_stays_its_own(first: str, second: str) -> None:
    assert first in live_rules(ledger_of_said(START, first, second))


def test_a_letter_after_a_hyphen_is_no_unit() -> None:
    rule = "Keep sessions 30 minutes, users drop off during 3-D Secure."
    ledger = ledger_of_said(START, rule, "scratch the 30 min, make it 2 hours for sessions")
    assert rule not in live_rules(ledger)
