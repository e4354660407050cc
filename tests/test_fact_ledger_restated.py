"""A sentence that only gives a rule in force a new value is a rule, even inside a long
message that reads as a list of requests (issue 23: implicit changes, any language)."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said
from tether.builtin_plugins.memory.fact_ledger import Ledger

GOAL = "Port the telemetry service to Rust."


def live(ledger: Ledger) -> set[str]:
    return {f.text for f in ledger.live()}


@pytest.mark.parametrize(
    ("old", "message", "new"),
    [
        (
            "The sampler polls the sensors at 50 Hz.",
            "Talked to the hardware people today. The sampler moves to 200 Hz, the new boards "
            "can take it. Also the dashboard colors look odd.",
            "The sampler moves to 200 Hz, the new boards can take it.",
        ),
        (
            "采样频率 50 Hz。",
            "今天和硬件组聊了一下。采样频率提到 200 Hz，新板子扛得住。另外仪表盘颜色有点怪。",
            "采样频率提到 200 Hz，新板子扛得住。",
        ),
        (
            "the tile cache keeps 300 entries",
            "notes from the demo:\n- the tile cache goes to 900 entries, panning stutters\n"
            "- legend stays",
            "- the tile cache goes to 900 entries, panning stutters",
        ),
    ],
)
def test_a_new_value_inside_a_long_message_is_a_rule_in_force(
    old: str, message: str, new: str
) -> None:
    ledger = ledger_of_said(GOAL, old, message)
    assert new in {f.text for f in ledger.live("constraint")}
    assert old not in live(ledger)


def test_a_request_for_work_naming_a_value_stays_a_request() -> None:
    ledger = ledger_of_said(GOAL, "request timeout is 30 s", "add a retry after 5 s")
    assert "add a retry after 5 s" in {f.text for f in ledger.live("request")}
    assert "request timeout is 30 s" in live(ledger)
