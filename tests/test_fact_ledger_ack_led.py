"""A message that opens with an acknowledgement ("👍", "cool", "谢谢") and then asks for
something naming an identifier states facts; one that only keeps the work going does not."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said

GOAL = "Ship the label printer driver."


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("👍 bump it to 2.4.0 and reference OPS-771 in the release notes", ["2.4.0", "OPS-771"]),
        ("cool, thanks. push it as registry.lab/printer:rc3 then", ["registry.lab/printer:rc3"]),
        ("谢谢！把 PRINTER_DPI=300 加到 .env 里", ["PRINTER_DPI=300"]),
    ],
)  # fmt: skip
def test_an_acknowledgement_before_an_identifier_keeps_the_message(
    said: str, kept: list[str]
) -> None:
    texts = [f.text for f in ledger_of_said(GOAL, said).live()]
    for identifier in kept:
        assert any(identifier in text for text in texts), (identifier, texts)


@pytest.mark.parametrize(
    "said",
    [
        "Thanks, that looks right, please carry on with the rest of it",
        "Continue (round 3 of 5): keep going with what you were doing.",
        "ok 👍 go on",
    ],
)
def test_an_acknowledgement_that_only_keeps_going_states_nothing(said: str) -> None:
    assert [f.kind for f in ledger_of_said(GOAL, said).live()] == ["goal"]


@pytest.mark.parametrize(
    "said",
    ["嗯，全量重算没必要，增量就够了。", "好，那报表只给财务组看，别发全员"],
)
def test_a_chinese_filler_word_before_a_statement_keeps_it(said: str) -> None:
    assert said in [f.text for f in ledger_of_said(GOAL, said).live()]


@pytest.mark.parametrize("said", ["好的，继续吧", "嗯嗯，接着来"])
def test_a_chinese_filler_alone_states_nothing(said: str) -> None:
    assert [f.kind for f in ledger_of_said(GOAL, said).live()] == ["goal"]
