"""A value set for now only (issue 23): a later change sharing one subject word with it
replaces it, in English and Chinese; a rule said for good needs a closer likeness."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules

START = "Ship the firmware updater."


@pytest.mark.parametrize(
    ("held", "change"),
    [
        ("签名算法先用 Ed25519，够快。", "开完评审会：算法改为 ECDSA P-256，合规要求。"),
        (
            "Compress the bundles with gzip for now, it is built in.",
            "After the benchmark: switch the bundles to zstd, much faster.",
        ),
    ],
)
def test_a_change_replaces_a_rule_held_for_now(held: str, change: str) -> None:
    ledger = ledger_of_said(START, held, change)
    assert held not in live_rules(ledger)
    assert change in live_rules(ledger)


def test_a_rule_said_for_good_needs_more_than_one_word() -> None:
    kept = "签名算法用 Ed25519，够快。"
    ledger = ledger_of_said(START, kept, "开完评审会：算法改为 ECDSA P-256，合规要求。")
    assert kept in live_rules(ledger)
