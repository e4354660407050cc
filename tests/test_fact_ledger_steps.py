"""A next step said inside a sentence, in the ways users write it (issue 23): "next step is",
"write X next, then Y", "tomorrow: …", "明天早上第一件事是…", "先 X，然后 Y"."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said
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


@pytest.mark.parametrize(
    ("message", "steps"),
    [
        (
            "Next: cut the 2.4 release branch. Please draft the notes from the merged PRs too.",
            [
                "Next: cut the 2.4 release branch.",
                "Please draft the notes from the merged PRs too.",
            ],
        ),
        (
            "ok 构建过了。下一步：把镜像推到 harbor 的 prod 项目。推之前先找 @wei 过一下扫描报告。",
            ["下一步：把镜像推到 harbor 的 prod 项目。", "推之前先找 @wei 过一下扫描报告。"],
        ),
    ],
)
def test_requests_after_a_next_step_in_one_message_are_steps_too(
    message: str, steps: list[str]
) -> None:
    ledger = ledger_of_said("Get the release out.", message)
    assert [f.text for f in ledger.live("next_step")] == steps


def test_a_question_after_a_next_step_stays_a_request() -> None:
    ledger = ledger_of_said("Get the release out.", "Next: cut the branch. Is main green?")
    assert [f.text for f in ledger.live("next_step")] == ["Next: cut the branch."]


@pytest.mark.parametrize(
    "said",
    [
        "When it's done, deploy it to the canary pool.",
        "When the backfill is finished, deploy it to the canary pool.",
        "迁移完成后，把旧表归档到冷存储。",
    ],
)
def test_work_said_for_when_the_current_task_is_done_is_a_next_step(said: str) -> None:
    ledger = ledger_of_said("Get the release out.", said)
    assert [f.text for f in ledger.live("next_step")] == [said]


def test_all_of_a_kind_by_one_setting_is_a_chinese_rule() -> None:
    said = "还有，所有金额都按人民币元显示，保留两位小数。"
    ledger = ledger_of_said("做一个记账小工具。", said)
    assert any("所有金额都按人民币元显示" in f.text for f in ledger.live("constraint"))
