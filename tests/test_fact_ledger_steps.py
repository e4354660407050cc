"""A next step said inside a sentence, in the ways users write it (issue 23): "next step is",
"write X next, then Y", "tomorrow: …", "明天早上第一件事是…", "先 X，然后 Y"."""

from __future__ import annotations

import pytest

from tether.builtin_plugins.memory.fact_ledger.cues import default_cues
from tether.builtin_plugins.memory.fact_ledger.extract import classify


@pytest.mark.parametrize(
    "sentence",
    [
        "great, next step is a PR against the infra repo with the rendered diff",
        "ok let's write the migration notes next, then the email templates",
        "tomorrow: hook the exporter into the nightly run and add a snapshot test",
        "明天：把导出接到夜间任务里",
        "今晚要是跑不完，明天早上第一件事是看日志",
        "明天上午我想先看到 /api/health 能跑通，然后再弄 /api/orders",
    ],
)
def test_a_next_step_said_inside_a_sentence_is_one(sentence: str) -> None:
    assert classify(sentence, default_cues()) == "next_step"


@pytest.mark.parametrize("sentence", ["What comes next?", "The next release is on Friday."])
def test_next_as_an_adjective_or_a_question_is_no_step(sentence: str) -> None:
    assert classify(sentence, default_cues()) != "next_step"
