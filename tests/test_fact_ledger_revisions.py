"""The fact ledger on values users take back or set again (issue 23, a blind set's shapes):
identifiers revoked ("remove it", 删掉), an opening message whose values change later, one
``key = value`` set again in terse messages, Chinese rules listed after a label without
punctuation, a deadline, and a next step named inside a sentence — on both tracks (offline,
and a fact-free summarizer whose summaries only the gate can complete)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.gate_helpers import assistant, text, tool_turn, user
from tests.ledger_helpers import FactFree, compactions, ledger_of_said, section, write_turns

TRACKS = ["offline", "factfree"]
NOTES = ("revoked", "no longer", "changed to", "changed from")


def summaries(tmp_path: Path, turns: list[str], track: str, k: int = 2) -> list[str]:
    file = tmp_path / f"{track}.jsonl"
    write_turns(file, turns, reply="Noted.")
    plugins = [("factfree", FactFree())] if track == "factfree" else []
    return [e["summary"] for e in compactions(file, k, *plugins, summarizer=track)]


def current_lines(summary: str, value: str) -> list[str]:
    """Lines outside ``### Done`` that show ``value`` with no change note."""
    out, heading = [], ""
    token = re.compile(r"(?<![\w-])" + re.escape(value) + r"(?![\w-])")
    for line in summary.splitlines():
        if line.startswith("#"):
            heading = line.strip()
        elif heading != "### Done" and token.search(line):
            if not any(note in line for note in NOTES):
                out.append(line)
    return out


# -- 1. a revoked identifier is retired and said to be revoked ---------------------------------

REVOKE_EN = [
    "We need a nightly job that snapshots the audit tables.",
    "also wire in the log forwarder, its spool bucket is gs://ops-audit-spool",
    "Run the sync with --no-verify for now, the hooks are broken.",
    "Snapshots are written as parquet files.",
    "we don't need the log forwarder anymore. finance cut it, gs://ops-audit-spool is being "
    "torn down next week. take it out.",
    "the hooks are fixed, you can drop --no-verify going forward",
]
REVOKE_ZH = [
    "帮我把报表导出服务搭起来。",
    "另外导出的备份写到 oss://bi-backup-2023 这个桶。",
    "先加上 --skip-lint 跑，lint 规则还没定。",
    "导出文件统一用 UTF-8 编码。",
    "备份那个桶不再需要了 oss://bi-backup-2023 月底删掉 去掉吧",
    "lint 已经修好了，--skip-lint 删掉。",
]
REVOKED = {"en": (REVOKE_EN, ["gs://ops-audit-spool", "--no-verify"]),
           "zh": (REVOKE_ZH, ["oss://bi-backup-2023", "--skip-lint"])}  # fmt: skip


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_revoked_identifier_is_no_live_fact(language: str) -> None:
    turns, names = REVOKED[language]
    ledger = ledger_of_said(*turns)
    live = {f.text for f in ledger.live("identifier")}
    for name in names:
        assert name not in live, name
        assert any(f.text == name and f.note == "revoked" for f in ledger.facts), name
    assert turns[3] in {f.text for f in ledger.live("constraint")}  # the rest stays


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_revoked_identifier_is_never_shown_as_current(
    tmp_path: Path, language: str, track: str
) -> None:
    turns, names = REVOKED[language]
    for summary in summaries(tmp_path, turns, track):
        for name in names:
            assert current_lines(summary, name) == [], (name, summary)
        assert turns[3] in summary


def test_an_identifier_said_first_in_a_revoking_message_stays() -> None:
    ledger = ledger_of_said("Set up the exporter.", "drop the old cron job, write to s3://new-drop")
    assert "s3://new-drop" in {f.text for f in ledger.live("identifier")}


def test_deleting_something_else_named_with_a_pin_keeps_the_pin() -> None:
    ledger = ledger_of_said(
        "Fix the build.",
        "I'm on numpy==1.26.4 because the 2.x wheels broke us.",
        "delete the stale wheel cache in the build folder, then rebuild against numpy==1.26.4 "
        "as before",
    )
    assert "numpy==1.26.4" in {f.text for f in ledger.live("identifier")}


def test_keeping_a_flag_is_no_revocation() -> None:
    ledger = ledger_of_said("Set up the exporter.", "Run it with --strict.", "don't drop --strict")
    assert "--strict" in {f.text for f in ledger.live("identifier")}


# -- 2. an opening message's values changed later carry a change note --------------------------

OPENING_EN = [
    "we're porting our old scripts to a pipeline. reference is GRX19 because the old cohort "
    "used it. aligner FOO 2.7.10a from the image.",
    "switch to GRX38 for everything",
    "container: FOO 2.7.11b please",
]
OPENING_ZH = [
    "我们要把旧的统计脚本迁到新平台上。基准库用 BASE7 因为老项目都是这个，"
    "绘图包用 plotkit 3.3.6b 从镜像里装。",
    "统一改用 BASE9",
    "绘图包换成 plotkit 3.4.0a",
]


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize(
    ("turns", "old", "new"),
    [(OPENING_EN, ["GRX19", "FOO 2.7.10a"], ["GRX38", "FOO 2.7.11b"]),
     (OPENING_ZH, ["BASE7", "plotkit 3.3.6b"], ["BASE9", "plotkit 3.4.0a"])],
)  # fmt: skip
def test_an_opening_messages_old_values_carry_their_change(
    tmp_path: Path, track: str, turns: list[str], old: list[str], new: list[str]
) -> None:
    for summary in summaries(tmp_path, turns, track):
        for value, replacement in zip(old, new, strict=True):
            assert current_lines(summary, value) == [], (value, summary)
            assert replacement in summary


def test_two_parts_of_one_later_message_are_no_change_of_the_goal() -> None:
    ledger = ledger_of_said(
        "Port the scripts; reference is GRX19.", "Keep GRX19 and add GRX38 too."
    )
    assert ledger.goal_note() == ""


# -- 3. one key set again ---------------------------------------------------------------------

SAME_KEY = [
    "tune the ingestion workers for the new box.",
    "set process.threads = 16 like the old scripts.",
    "bump the loader to 0.15.3",
    "retry_limit: 3",
    "process.threads = 8. the admins said jobs over 8 cores wait.",
    "memory is fine at 2 GB per worker. and the queue got better, process.threads = 12 is the "
    "sweet spot.",
    "use loader_version=0.15.11",
    "retry_limit: 5",
]


def test_a_key_set_again_retires_the_earlier_settings() -> None:
    live = {f.text for f in ledger_of_said(*SAME_KEY).live()}
    assert not any("process.threads = 16" in t or "process.threads = 8" in t for t in live)
    assert "and the queue got better, process.threads = 12 is the sweet spot." in live
    assert "bump the loader to 0.15.3" not in live
    assert "retry_limit: 3" not in live and "retry_limit: 5" in live


def test_a_key_set_again_in_chinese_retires_the_earlier_setting() -> None:
    turns = [
        "帮我调一下同步任务。",
        "先设 sync.parallel = 8 跟线上一样。",
        "sync.parallel = 2 测试机扛不住",
    ]
    live = {f.text for f in ledger_of_said(*turns).live()}
    assert "先设 sync.parallel = 8 跟线上一样。" not in live
    assert "sync.parallel = 2 测试机扛不住" in live


def test_a_file_and_a_line_are_no_key() -> None:
    turns = ["Fix the parser.", "look at utils.py: it crashes", "and check app.py:42 too"]
    ledger = ledger_of_said(*turns, "now look at utils.py: the loop is wrong")
    assert "look at utils.py: it crashes" in {f.text for f in ledger.live("request")}


def test_one_key_for_two_parts_keeps_both() -> None:
    turns = ["Tune it.", "pool.size = 4 on staging", "pool.size = 32 in prod"]
    live = {f.text for f in ledger_of_said(*turns).live()}
    assert {"pool.size = 4 on staging", "pool.size = 32 in prod"} <= live


@pytest.mark.parametrize("track", TRACKS)
def test_the_last_setting_of_a_key_is_kept_and_the_old_ones_are_not_current(
    tmp_path: Path, track: str
) -> None:
    for summary in summaries(tmp_path, SAME_KEY, track):
        assert "process.threads = 12" in summary
        for old in ("process.threads = 16", "process.threads = 8", "loader to 0.15.3"):
            assert current_lines(summary, old) == [], (old, summary)


# -- 4. Chinese rules after a label, a deadline -------------------------------------------------

ZH_RULES = [
    "帮我做单细胞数据的质控。",
    "嗯 质控阈值：线粒体比例超过15%的细胞去掉 基因数少于200的也去掉 别的先不管",
    "我们先把流程跑通。另外原始数据在 /data/sc 下面。不过今天先不弄了，下周一之前要交初稿给导师。"
    "顺便看下日志。",
]


@pytest.mark.parametrize("track", TRACKS)
def test_chinese_rules_after_a_label_and_a_deadline_are_constraints(
    tmp_path: Path, track: str
) -> None:
    heading = ("##" if track == "offline" else "###") + " Constraints & Preferences"
    for summary in summaries(tmp_path, ZH_RULES, track):
        rules = section(summary, heading)
        for rule in (
            "线粒体比例超过15%的细胞去掉",
            "基因数少于200的也去掉",
            "下周一之前要交初稿给导师",
        ):
            assert rule in rules, (rule, summary)


# -- 5. a next step named inside a sentence ----------------------------------------------------

STEP_EN = (
    "Once Tom has re-run `tool sync` on his machine, the next step is to re-run `lane` and "
    "then submit build 20418 to the external group. I'll tell you when."
)
STEP_ZH = (
    "等小王在他机器上跑完 `npm run gen` 之后，下一步是重新跑 `e2e-suite` "
    "然后把构建 5512 提交给测试组。"
)


@pytest.mark.parametrize(
    "sentence",
    [
        "When the vendor answers, the next thing is to rotate the keys.",
        "Ok, Mia merges first; next up is tagging 3.2.0 for the store.",
        "周三之后，接下来要把灰度比例调到 50%。",
    ],
)
def test_other_wordings_of_a_next_step_inside_a_sentence(sentence: str) -> None:
    ledger = ledger_of_said("Ship the release.", sentence)
    assert [f.text for f in ledger.live("next_step")] == [sentence]


@pytest.mark.parametrize("sentence", ["周五前要把报告发给客户。", "The draft is due by Monday."])
def test_a_deadline_is_a_constraint(sentence: str) -> None:
    ledger = ledger_of_said("Write the report.", "Use the 2024 template. " + sentence + " Thanks!")
    assert sentence in {f.text for f in ledger.live("constraint")}


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("step", [STEP_EN, STEP_ZH])
def test_a_next_step_inside_a_sentence_is_a_next_step_not_done(
    tmp_path: Path, track: str, step: str
) -> None:
    said = step.split(" I'll")[0]
    heading = "## Next Steps" if track == "offline" else "### Next Steps"
    for summary in summaries(tmp_path, ["Get the release candidate ready.", step], track):
        assert said in section(summary, heading), summary
        assert said not in section(summary, "### Done")


@pytest.mark.parametrize(
    "first",
    [
        ["Build the mod; the wifi is flaky, run gradle with --offline."],  # inside a command
        ["Build the mod.", "my wifi is flaky today, so use the --offline flag for now."],
    ],
)
def test_a_failed_call_with_a_revoked_flag_says_the_flag_is_revoked(
    tmp_path: Path, first: list[str]
) -> None:
    """An open error's call quotes a flag taken back later: its Blocked line, and any live
    line quoting the flag, say so (offline track: the fact-free model's checkpoint has no
    Blocked error to annotate)."""
    file = tmp_path / "blocked.jsonl"
    session = write_turns(file, first)
    call = {"command": "./gradlew build --offline"}
    for message in tool_turn("b1", "bash", call, "FAILURE: Build failed with an exception.", True):
        session.append_message(message)
    session.append_message(user("wifi is back, you can drop the --offline flag from now on"))
    session.append_message(assistant([text("Noted.")]))
    for summary in [e["summary"] for e in compactions(file, 2)]:
        blocked = section(summary, "### Blocked")
        assert "FAILURE: Build failed with an exception." in blocked, summary
        assert current_lines(blocked, "--offline") == [], summary
        assert current_lines(summary, "--offline") == [], summary


@pytest.mark.parametrize(
    ("turns", "old", "new"),
    [
        (["Pin serde to 1.0.197.", "Actually use serde 1.0.203 instead of 1.0.197."],
         "1.0.197", "1.0.203"),
        (["依赖固定 serde 1.0.197。", "改用 serde 1.0.203 而不是 1.0.197。"], "1.0.197", "1.0.203"),
    ],
)  # fmt: skip
def test_the_value_a_change_names_as_replaced_is_no_live_identifier(
    turns: list[str], old: str, new: str
) -> None:
    ledger = ledger_of_said(*turns)
    live = {f.text for f in ledger.live("identifier")}
    assert new in live and old not in live, live
