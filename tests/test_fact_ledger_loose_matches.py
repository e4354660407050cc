"""A change or take-back replaces a rule only when both name the same thing: a function word
("not", "after") or one Chinese word seen as two overlapping character pairs is no such thing."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules
from tether.builtin_plugins.memory.fact_ledger.cues import default_cues
from tether.builtin_plugins.memory.fact_ledger.extract import Statement
from tether.builtin_plugins.memory.fact_ledger.ledger import Ledger
from tether.builtin_plugins.memory.fact_ledger.words import shared_count


@pytest.mark.parametrize(
    ("rule", "later"),
    [
        (
            "Blank cells mean the sample was lost — skip them, not as zero.",
            "Also, I've decided not to round the means after all, keep two decimals.",
        ),
        (
            "另外标签要支持嵌套，<b><i></i></b> 这种要能正确处理。",
            "对，未闭合的标签要报错而不是直接崩溃。",
        ),
    ],
)
def test_a_change_about_something_else_keeps_the_rule(rule: str, later: str) -> None:
    rules = live_rules(ledger_of_said("Write the lab data cleaner.", rule, later))
    assert rule in rules
    assert later in rules


def test_a_character_pair_with_a_glue_character_is_no_shared_word() -> None:
    assert shared_count({"标签", "签要"}) == 1
    assert shared_count({"旧网", "网关"}) == 2
    assert shared_count({"strings", "escape"}) == 2


def test_a_take_back_naming_the_rules_tool_still_retires_it() -> None:
    rule = "Compress the nightly dumps with lz4."
    ledger = ledger_of_said("Back up the lab server.", rule, "we don't need lz4 anymore, drop it")
    assert rule not in live_rules(ledger)


@pytest.mark.parametrize(
    ("rule", "later"),
    [
        (
            "每个仓位最多放 40 箱",
            "3 号仓这周进了 120 箱是因为补货，补货单不再走人工审批，单独处理",
        ),
        (
            "Keep each upload under 200 MB.",
            "The 900 MB file last night was a one-off backfill, and we no longer email the report.",
        ),
    ],
)  # fmt: skip
def test_a_value_outside_the_clause_of_the_cue_changes_no_rule(rule: str, later: str) -> None:
    rules = live_rules(ledger_of_said("Run the warehouse jobs.", rule, later))
    assert rule in rules


def test_a_cued_value_of_the_same_unit_still_changes_the_rule() -> None:
    rule = "每个仓位最多放 40 箱"
    rules = live_rules(ledger_of_said("Run the warehouse jobs.", rule, "上限改成 60 箱"))
    assert rule not in rules


@pytest.mark.parametrize(
    "denied",
    [
        "We can't just bump the base image because the billing Dockerfile pins "
        "`alpine:3.19@sha256:9f1e…` and audit signed off on that digest.",
        "I won't simply upgrade the base image, the worker Dockerfile pins `ubuntu:22.04`.",
    ],
)
def test_a_denied_change_retires_nothing(denied: str) -> None:
    rule = "The nightly job scans ghcr.io/acme/billing-api:4.2.0 with grype 0.74.1."
    rules = live_rules(ledger_of_said("Fix the image scan.", rule, denied))
    assert rule in rules


def test_a_piece_of_a_contraction_names_nothing() -> None:
    rule = "rejected packets i'd log but rate limited, don't want the disk filling up"
    later = "the old vpn forwarding rules can go, we don't run openvpn on this box anymore"
    rules = live_rules(ledger_of_said("Move the router to nftables.", rule, later))
    assert rule in rules


def test_a_topic_take_back_needs_more_than_one_generic_word_in_common() -> None:
    rule = "the old jobs are in /etc/cron.d/legacy, port them to systemd timers"
    later = "the old backup mirroring jobs can go, we don't mirror to tape anymore"
    rules = live_rules(ledger_of_said("Move the server to systemd.", rule, later))
    assert rule in rules


@pytest.mark.parametrize(
    ("rule", "later"),
    [
        ("每周日把备份同步到磁带库", "磁带同步那个不要了，不再做"),
        (
            "mirror the backups to the tape library every Sunday",
            "The tape mirroring: no longer needed, the library is being scrapped",
        ),
    ],
)
def test_a_topic_take_back_still_ends_the_rule_it_names(rule: str, later: str) -> None:
    rules = live_rules(ledger_of_said("Move the server to systemd.", rule, later))
    assert rule not in rules


def test_a_later_sentence_of_the_goal_message_keeps_its_parts() -> None:
    opening = (
        "Picking up WEB-812 today. The web e2e build has been failing on CI since Monday, and "
        "I'm fairly sure it started after the bump to playwright 1.44.0 in commit 5be91c0. Can "
        "you look? The CI job is https://ci.example.dev/job/web-e2e/3012/ if you want the log."
    )
    kept = [f.text for f in ledger_of_said(opening).live("identifier")]
    assert "https://ci.example.dev/job/web-e2e/3012/" in kept, kept


@pytest.mark.parametrize(
    ("rule", "later", "replaced"),
    [
        (
            "The firmware is in boards/arm/acme_probe/ and I flash with "
            "`west flash -- -DEXTRA=debug.conf`.",
            "Also please gate the acme debug output behind CONFIG_PROBE_TRACE rather than "
            "hard-coding printk.",
            "",
        ),
        (
            "we parse the feeds with ujson for now",
            "parse the feeds with orjson rather than ujson",
            "we parse the feeds with ujson for now",
        ),
    ],
)  # fmt: skip
def test_rather_than_names_what_it_replaces(rule: str, later: str, replaced: str) -> None:
    rules = live_rules(ledger_of_said("Bring up the probe board.", rule, later))
    assert (rule not in rules) == bool(replaced)


def test_a_request_of_the_opening_message_is_no_setting_a_change_replaces() -> None:
    cues = default_cues()
    ledger = Ledger()
    ledger.new_fact("goal", "I want to figure out if it's the emulator or our code.", "e0")
    context = ledger.new_fact(
        "request",
        "hey, MOB-311 tracks the instrumented tests on CI failing since we went to AGP 8.4.1 "
        "and gradle 8.7.",
        "e0",
    )
    later = (
        "Also we need the env var CHECKOUT_API_BASE_URL pointed at http://10.0.2.2:9090 in the "
        "test runner args, it currently falls back to the staging URL which is probably why "
        "some runs pass."
    )
    ledger.add(Statement("constraint", later, "e1", cues.has("change", later)), cues)
    assert context.live
