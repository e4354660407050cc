"""A sign any language writes with (a thumbs-up, a check mark) accepts the assistant's
proposal as a word would (issue 23: language-independent signals)."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_turns

PROPOSAL = "The cache misses pile up at night. Shall I raise the TTL to ttl=900 for the tiles?"


@pytest.mark.parametrize("sign", ["👍", "👌", "✅", "👍 👍"])
def test_a_sign_accepts_the_proposal(sign: str) -> None:
    ledger = ledger_of_turns(
        ("user", "Speed up the map tile server."),
        ("user", "ttl=300 is fine for the tiles."),
        ("assistant", PROPOSAL),
        ("user", sign),
    )
    accepted = [f for f in ledger.live("decision") if "ttl=900" in f.text]
    assert accepted and "accepted" in accepted[0].note
    assert "ttl=300 is fine for the tiles." not in {f.text for f in ledger.live()}


def test_a_sign_without_a_proposal_is_no_decision() -> None:
    ledger = ledger_of_turns(
        ("user", "Speed up the map tile server."),
        ("assistant", "The tile cache is warm now."),
        ("user", "👍"),
    )
    assert ledger.live("decision") == []


def test_a_sign_accepts_a_change_question() -> None:
    ledger = ledger_of_turns(
        ("user", "Train the detector."),
        ("user", "Use batch size 32 for training."),
        ("assistant", "Memory is tight. Switch to batch size 16?"),
        ("user", "✅"),
    )
    accepted = [f for f in ledger.live("decision") if "16" in f.text]
    assert accepted and "accepted" in accepted[0].note
    assert "Use batch size 32 for training." not in {f.text for f in ledger.live()}
