"""Measures written as one hyphenated word, numbers taken back alone, and changes that are
weighed and set aside (issue 23: sessions nobody tuned for).

"a 30-day retention window" states 30 days as much as "retention: 30 days" does; "drop the
8, …" takes back the one rule of eight; "we looked at X instead but that won't work here"
changes nothing, and neither does a sentence naming a tool beside a person's name."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of, ledger_of_said, live_rules

START = "We're tuning the nightly data jobs."


@pytest.mark.parametrize(
    ("rule", "change", "new"),
    [
        ("Keep a 30-day retention window.", "retention: 2 weeks", "2 weeks"),
        ("Use a 5-minute timeout on the sync.", "sync timeout of 90 seconds", "90 seconds"),
        ("Train on a 3-year history.", "use an 18-month history", "18-month"),
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


def test_a_number_taken_back_alone_ends_the_one_rule_of_it() -> None:
    rule = "give it 8 workers while the backfill runs"
    ledger = ledger_of_said(START, rule, "backfill's done. scratch the 8, concurrency: 3 is plenty")
    assert rule not in live_rules(ledger)


@pytest.mark.parametrize(
    "second",
    ["Keep 8 days of logs.", "Pin the client at 8.2.1 for now."],
)
def test_a_number_two_rules_share_or_a_version_holds_is_taken_from_neither(second: str) -> None:
    rule = "give it 8 workers while the backfill runs"
    live = live_rules(ledger_of_said(START, rule, second, "drop the 8, 3 will do"))
    if "days" in second:
        assert {rule, second} <= live  # which 8: no subject says
    else:
        assert rule not in live and second in live  # 8.2.1 is no 8


@pytest.mark.parametrize(
    "weighed",
    [
        "We looked at running it on Lambda instead but that won't work with 20-minute jobs, "
        "so Airflow it stays.",
        "I thought about switching to cron instead, though it doesn't work with our retries.",
        "本来想改用 cron，但是在集群上不行，所以还是用 Airflow。",
    ],
)
def test_a_change_weighed_and_set_aside_replaces_nothing(weighed: str) -> None:
    rule = "Schedule every job in Airflow, with retries on."
    assert rule in live_rules(ledger_of_said(START, rule, weighed))


def test_a_change_said_plainly_still_replaces_the_rule() -> None:
    rule = "Schedule every job in Airflow, with retries on."
    later = "switch to cron instead, Airflow is too heavy for four jobs"
    assert rule not in live_rules(ledger_of_said(START, rule, later))


def test_a_tool_named_beside_a_person_is_not_replaced_by_the_person() -> None:
    rule = "要求：比对用 BWA 0.7.17，版本不要动。"
    later = "那个 BWA 索引还没建好，先用 /data/refs/hg38/bwa_v3，是昨天 Chen 做的。"
    ledger = ledger_of_said("任务是把变异检测流程迁移到 Nextflow。", rule, later)
    assert any("BWA 0.7.17" in text for text in live_rules(ledger))


def test_a_reason_of_the_same_shape_still_names_the_replacement() -> None:
    ledger = ledger_of_said(START, "Pin the runner at v3.1.0.", "v3.1.0 leaks memory, go v3.2.1")
    assert "Pin the runner at v3.1.0." not in live_rules(ledger)


def test_an_error_of_a_name_a_kept_clause_still_uses_stays_open() -> None:
    ledger = ledger_of(
        [
            {"role": "user", "content": START},
            {"role": "user", "content": "Pull rates from the Frankfurter API, lookback of 7 days."},
            {
                "role": "user",
                "content": "it fails:\n```\n"
                "httpx.HTTPStatusError: 503 from the Frankfurter API\n```",
            },
            {"role": "user", "content": "lookback: 3 days"},
        ]
    )
    errors = [f.text for f in ledger.live("error")]
    assert any("Frankfurter" in text for text in errors)


@pytest.mark.parametrize(
    "line",
    [
        '[09:41:07]: ▸ ❌  error: Provisioning profile "Kiosk Dev" has expired.',
        "2026-03-02 09:41:07 | ✖ error: cannot open /dev/ttyUSB0: Permission denied",
    ],
)
def test_an_error_after_a_time_stamp_and_marks_is_the_pasted_error(line: str) -> None:
    pasted = f"the build died again, end of the log:\n```\n{line}\n[09:41:07]: Exit status: 65\n```"
    ledger = ledger_of_said(START, pasted)
    said = line.split("error:", 1)[1].strip()
    assert any(said in f.text for f in ledger.live("error"))
    assert not any(said in f.text for f in ledger.live("identifier"))  # said once


@pytest.mark.parametrize(
    "message",
    [
        "3.4.1 has the cache eviction bug we keep hitting. 3.4.2 ships the fix, pin that.",
        "v0.9.3 regressed the retry logic. go with v0.9.4.",
    ],
)
def test_a_version_found_faulty_before_another_is_picked_is_the_reason(message: str) -> None:
    ledger = ledger_of_said(START, message)
    faulted = message.split(" ", 1)[0]
    assert not any(text.startswith(faulted) for text in live_rules(ledger))
    assert faulted not in {f.text for f in ledger.live("identifier")}


@pytest.mark.parametrize(
    "message",
    [
        "3.4.2 fixes the cache eviction bug. 3.4.3 is out as well.",
        "3.4.1 has the cache eviction bug. 3.4.2 has it too.",
    ],
)
def test_a_fixed_or_shared_defect_keeps_the_version_said(message: str) -> None:
    ledger = ledger_of_said(START, message)
    first = message.split(". ", 1)[0] + "."
    assert first in live_rules(ledger)
