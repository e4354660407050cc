"""A value set "to" a named setting ("set MTU to 1500", "bump Node to 22") belongs to that
name as "MTU 9000" does: it changes the rule stating the name's old value."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules
from tether.builtin_plugins.memory.fact_ledger.slots import slots


def test_a_value_set_to_a_name_is_keyed_by_the_name() -> None:
    assert [s.key for s in slots("set MTU to 1500 for now")] == ["version:mtu"]
    assert [s.key for s in slots("Set it to 5")] == [""]


@pytest.mark.parametrize(
    ("rule", "later", "kept"),
    [
        (
            "storage: raid10 over the four NVMe drives, MTU 9000 on the storage vlan.",
            "the switch can't do jumbo frames yet, so set MTU to 1500 for now.",
            "storage: raid10 over the four NVMe drives",
        ),
        ("Workers run on Node 18.", "bump Node to 22, the old one is out of support", ""),
    ],
)
def test_a_value_set_to_a_name_changes_its_rule(rule: str, later: str, kept: str) -> None:
    rules = live_rules(ledger_of_said("Set up the storage box.", rule, later))
    assert rule not in rules
    assert later in rules
    if kept:
        assert kept in rules
