"""Rates and frequencies are quantities of one unit (``30 Hz``, ``0.8 m/s``, ``50 赫兹``): said
again of one subject with another value, they replace the old one (issue 23: implicit
changes, any language)."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said
from tether.builtin_plugins.memory.fact_ledger import Ledger
from tether.builtin_plugins.memory.fact_ledger.slots import slots

GOAL = "Port the telemetry service to Rust."


def live(ledger: Ledger) -> set[str]:
    return {f.text for f in ledger.live()}


@pytest.mark.parametrize(
    ("text", "value", "shape"),
    [
        ("the arm moves at most 1.2 m/s", "1.2 m/s", "qty:m/s"),
        ("poll the bus at 400 Hz", "400 Hz", "qty:hz"),
        ("采样频率 50 赫兹", "50 赫兹", "qty:hz"),
        ("the fan spins at 900 rpm", "900 rpm", "qty:rpm"),
        ("cap the truck at 25 km/h in the yard", "25 km/h", "qty:km/h"),
    ],
)
def test_a_rate_is_a_quantity_of_its_unit(text: str, value: str, shape: str) -> None:
    assert [(s.text, s.shape) for s in slots(text)] == [(value, shape)]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("top speed of the cart 1.5 m/s", "speed cap for the cart is 1.0 m/s now"),
        ("The sampler polls the sensors at 50 Hz.", "the sampler runs at 200 Hz now"),
    ],
)
def test_a_rate_said_again_with_another_value_replaces_the_old(old: str, new: str) -> None:
    ledger = ledger_of_said(GOAL, old, new)
    assert old not in live(ledger) and new in live(ledger)


def test_rates_of_two_things_both_stay() -> None:
    ledger = ledger_of_said(GOAL, "the sampler runs at 50 Hz", "the audio mixer runs at 48 kHz")
    assert {"the sampler runs at 50 Hz", "the audio mixer runs at 48 kHz"} <= live(ledger)
