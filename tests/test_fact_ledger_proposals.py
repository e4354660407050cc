"""What the assistant proposes as a bare change question ("Switch to LOD1?", "换成 Kafka？")
and the user accepts is a decision (issue 23)."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_turns
from tether.builtin_plugins.memory.fact_ledger import default_cues
from tether.builtin_plugins.memory.fact_ledger.proposals import proposes


@pytest.mark.parametrize(
    ("rule", "offer", "reply"),
    [
        (
            "Render previews at LOD2.",
            "Previews take 40 s at LOD2; LOD1 would be four times faster. Switch to LOD1?",
            "yeah LOD1",
        ),
        ("消息队列用 RabbitMQ。", "RabbitMQ 的吞吐不够。换成 Kafka？", "好的"),
    ],
)
def test_an_accepted_change_question_is_a_decision(rule: str, offer: str, reply: str) -> None:
    ledger = ledger_of_turns(
        ("user", "Speed up the render farm."),
        ("user", rule),
        ("assistant", offer),
        ("user", reply),
    )
    decisions = [f.text for f in ledger.live("decision")]
    assert offer.split("。")[-1].split(". ")[-1] in decisions
    assert rule not in [f.text for f in ledger.live("constraint")]


@pytest.mark.parametrize(
    "sentence",
    [
        "Did you switch to Node 20 already?",
        "What changed when you moved to the new host?",
        "I switched to the staging config.",
    ],
)
def test_a_question_about_a_change_proposes_nothing(sentence: str) -> None:
    assert not proposes(sentence, default_cues())
