"""An IPv4 address is an address, not a version ("10.20.0.5", a subnet "10.44.0.0/24"), and
an old address leaves with the last rule that still said it."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules
from tether.builtin_plugins.memory.fact_ledger.identifiers import identifier_spans


@pytest.mark.parametrize(
    ("sentence", "address"),
    [
        ("the boot server is 172.16.4.20, use it", "172.16.4.20"),
        ("pods get 10.128.0.0/14.", "10.128.0.0/14"),
        ("route 192.168.50.0/24 via the lab switch", "192.168.50.0/24"),
    ],
)
def test_an_ipv4_address_is_one_address(sentence: str, address: str) -> None:
    spans = [(sentence[a:b], kind) for a, b, kind, _subject in identifier_spans(sentence)]
    assert (address, "ip") in spans


def test_a_version_with_a_v_stays_a_version() -> None:
    assert [kind for *_span, kind, _s in identifier_spans("ship v2.4.1.7 tonight")] == ["version"]


def test_an_address_said_again_before_its_change_leaves_with_it() -> None:
    ledger = ledger_of_said(
        "Set up the office VPN.",
        "- overlay subnet 10.60.0.0/24",
        "hmm and turns out 10.60.0.0/24 clashes with the VoIP vlan in Bristol. "
        "move the overlay to 10.77.0.0/24.",
    )
    live = [f.text for f in ledger.live()]
    assert "10.77.0.0/24" in live
    assert not [text for text in live if "10.60.0.0" in text], live
    assert "move the overlay to 10.77.0.0/24." in live_rules(ledger)


@pytest.mark.parametrize(
    ("rule", "later", "changed"),
    [
        ("Redis lives at 10.12.0.4, keep it off the public net.", "Redis stays on 7.2.4", False),
        ("Redis lives at 10.12.0.4.", "Redis moved to 10.12.0.9", True),
    ],
)
def test_an_address_and_a_version_of_one_thing_are_two_settings(
    rule: str, later: str, changed: bool
) -> None:
    rules = live_rules(ledger_of_said("Move the cache.", rule, later))
    assert (rule not in rules) == changed
