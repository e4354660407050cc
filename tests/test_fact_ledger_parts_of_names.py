"""Names inside CamelCase names, and rules said of every part (issue 23).

"keepalive" is the last part of "PersistentKeepalive", and "only the edge peer needs it" ends a
rule said "everywhere"; each case has a neighbour that must stay."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules

START = "We're setting up the site-to-site VPN role."


def test_a_take_back_names_a_part_of_a_camel_case_key() -> None:
    ledger = ledger_of_said(
        START,
        "- AllowedIPs 10.8.0.0/24\n- HandshakeTimeout = 90 everywhere",
        "drop the timeout, only the lagos peer needs it. the rest use the default.",
    )
    assert not any("HandshakeTimeout" in rule for rule in live_rules(ledger))
    assert any("AllowedIPs" in rule for rule in live_rules(ledger))


def test_a_rule_said_everywhere_ends_when_only_one_part_keeps_it() -> None:
    ledger = ledger_of_said(
        START,
        "Set MaxRetries = 5 everywhere.",
        "no more MaxRetries, only the flaky uplink needs it",
    )
    assert "Set MaxRetries = 5 everywhere." not in live_rules(ledger)


def test_a_take_back_narrowed_to_one_part_keeps_a_rule_for_all_the_rest() -> None:
    ledger = ledger_of_said(
        START,
        "Upload the config backup to the vault on every deploy.",
        "the vault upload is no longer needed for test deploys, only for prod",
    )
    assert "Upload the config backup to the vault on every deploy." in live_rules(ledger)


def test_an_image_of_another_runtime_changes_no_version() -> None:
    ledger = ledger_of_said(
        "We're moving the invoicing API into its own service.",
        "The service runs on Node 18.19.",
        "Run the migrations from python:3.12-slim from now on.",
    )
    assert "The service runs on Node 18.19." in live_rules(ledger)


@pytest.mark.parametrize(
    ("rule", "later"),
    [
        ("Set MaxSessions to 50 in the pool config.", "forget the sessions dashboard"),
        ("Route all auth through the TokenService class.", "drop the token refresh feature"),
        ("每个节点都设置 PersistentKeepalive = 25。", "不再需要 persistent 存储卷了"),
    ],
)
def test_a_word_of_its_own_noun_or_a_first_part_names_no_camel_case_key(
    rule: str, later: str
) -> None:
    assert rule in live_rules(ledger_of_said(START, rule, later))


@pytest.mark.parametrize(
    ("rule", "later"),
    [
        ("Use UTC timestamps everywhere.", "no longer show local timestamps, only UTC"),
        ("所有环境都用 Python 3.12。", "不再需要 3.11 的兼容代码了，只用 3.12"),
    ],
)
def test_what_stays_restating_an_everywhere_rule_keeps_it(rule: str, later: str) -> None:
    assert rule in live_rules(ledger_of_said(START, rule, later))
