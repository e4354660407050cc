"""A goal said as "what we want is…" (issue 23): the sentence is in the goal, in any language,
even after a polite opening that asks for help."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said


@pytest.mark.parametrize(
    ("opening", "wanted"),
    [
        (
            "Hi! Could you help me with the billing job?",
            "What we want, at the end of the day, is partner invoices out within a day of "
            "month end, since right now they only go out after a week.",
        ),
        (
            "Morning. I need a hand with the importer.",
            "What I'm after is one command that reloads every feed, as only half reload now.",
        ),
        ("你好，想请你看一下库存服务。", "我们要的是每天早上自动生成库存报表，只需要看一眼。"),
    ],
)
def test_what_we_want_is_the_goal(opening: str, wanted: str) -> None:
    goal = ledger_of_said(f"{opening} {wanted} The repo is called stockd.").goal()
    assert goal is not None and wanted in goal.text
