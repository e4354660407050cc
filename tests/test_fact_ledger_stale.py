"""Changed values never shown as current (issue 23, item 2): a terse key given another value,
an option at another level, a one-dash flag taken out, a replacement said after its reason,
a remark beside the changed value, and the goal's old values quoted elsewhere."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ledger_helpers import FactFree, compactions, ledger_of_said, write_turns
from tether.builtin_plugins.memory.fact_ledger import Ledger
from tether.builtin_plugins.memory.fact_ledger.goal import goal_shown
from tether.builtin_plugins.memory.fact_ledger.notes import fact_note, revision_note
from tether.builtin_plugins.memory.fact_ledger.recall import kept_identifiers


def live(ledger: Ledger) -> set[str]:
    return {f.text for f in ledger.live()}


def quoting(ledger: Ledger, value: str) -> list[str]:
    return [f.text for f in ledger.live() if value in f.text]


# -- a terse key given another value ------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "later", "old", "kept"),
    [
        (
            "The pool keeps maxConnections 40, and logs stay at info level.",
            "we saw queueing all morning so bump maxConnections to 64.",
            "maxConnections 40",
            "logs stay at info level",
        ),
        (
            "要求：poolSize 16，日志别打 debug",
            "压测扛不住，poolSize 改为 32",
            "poolSize 16",
            "日志别打 debug",
        ),
        ("同步：每次拉取 200 条，失败别重试", "接口扛得住 拉取量改成 1000", "200 条", "失败别重试"),
        ("每轮 300 个样本，学习率别动", "显存够 轮次样本改成 800", "300 个", "学习率别动"),
        ("主库连接池 50，从库连接池 20", "从库连接池改成 30", "从库连接池 20", "主库连接池 50"),
        (
            "the staging box runs workers 2 for now, logs go to loki",
            "we moved to bigger machines, so all boxes get workers 6.",  # every part
            "workers 2",
            "logs go to loki",
        ),
        (
            "compile the firmware at -O0, easier to step through",
            "the image no longer fits, -Oz please",
            "-O0",
            "easier to step through",
        ),
        (
            "debounce the search box, roughly 250ms.",  # a key named by the subject only
            "debounce feels laggy on old phones now, drop it to 120ms.",
            "250ms",
            "debounce the search box",
        ),
        (
            "Render the thumbnails with quality: 70, never upscale them.",
            "they look muddy on retina, quality 85 from here.",
            "quality: 70",
            "never upscale them",
        ),
    ],
)  # fmt: skip
def test_a_key_given_another_value_retires_only_its_clause(
    first: str, later: str, old: str, kept: str
) -> None:
    ledger = ledger_of_said("Set up the ingestion service.", first, later)
    assert not quoting(ledger, old)
    assert kept in live(ledger)


@pytest.mark.parametrize(
    ("first", "later"),
    [
        ("workers 2 on the staging box", "workers 8 on the prod box"),
        ("the draft lives in sec2 for now", "the figures go in sec3"),
        ("Step 1 is the schema dump.", "Step 2 is the data copy."),
    ],
)
def test_terse_pairs_of_two_parts_or_numberings_both_stay(first: str, later: str) -> None:
    assert {first, later} <= live(ledger_of_said("Set up the ingestion service.", first, later))


def test_an_option_at_another_level_is_a_change_and_the_same_level_is_not() -> None:
    from tether.builtin_plugins.memory.fact_ledger.keypair import terse_changes

    assert terse_changes("flash is tight now, -Oz please", "compile the firmware at -O0") == [
        ("-O0", "-Oz")
    ]
    assert terse_changes("keep -O2 there", "make -j4 -O2 -Wall") == []


# -- a one-dash flag taken out ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "taken_out", "flag"),
    [
        (
            "The deploy job runs `kubectl apply -prune -f k8s/` on every push.",
            "take the -prune out of the deploy job, it deleted the configmaps",
            "-prune",
        ),
        (
            "Link the release build with -static so it runs anywhere.",
            "ok kill -static, glibc warns about getaddrinfo all over the place",
            "-static",
        ),
    ],
)
def test_a_one_dash_flag_taken_out_is_never_current(said: str, taken_out: str, flag: str) -> None:
    ledger = ledger_of_said("Ship the CLI release this week.", said, taken_out)
    assert said not in live(ledger)
    assert not [f for f in ledger.live("identifier") if flag in f.text]
    for fact in ledger.live("constraint", "decision", "request"):
        if flag in fact.text:  # the taking back itself: told as revoked
            assert f"{flag} revoked" in fact_note(ledger, fact)


# -- a replacement said after its reason -----------------------------------------------------------


def test_a_replacement_said_after_the_reason_retires_the_old_value() -> None:
    rule = (
        "The cache must run on r6g.large nodes, and t3.medium was too small for the index, "
        "keep the nodes private."
    )
    ledger = ledger_of_said(
        "Stand up the cache cluster.",
        rule,
        "r6g.large runs out of memory under the import, r7g.xlarge has headroom, take that",
    )
    assert rule not in live(ledger)
    assert not quoting(ledger, "t3.medium")  # the old rule's own reason goes with it
    assert "keep the nodes private" in live(ledger)
    assert any("r7g.xlarge" in text for text in live(ledger))


def test_two_values_listed_without_a_reason_are_no_replacement() -> None:
    first = "The cache must run on r6g.large nodes."
    ledger = ledger_of_said(
        "Stand up the cache cluster.", first, "r6g.large and r7g.xlarge both work"
    )
    assert first in live(ledger)


# -- a remark beside the changed value retires with it -----------------------------------------


@pytest.mark.parametrize(
    ("rule", "change", "old"),
    [
        (
            "set the read timeout to 90s, the nightly report endpoint needs it",
            "go back to the default timeout, the nightly report endpoint is moving to its own "
            "service next sprint",
            "90s",
        ),
        (
            "发布窗口只能周二晚上 9 点以后，这是架构评审委员会定的。",
            "刚跟架构评审委员会确认了，以后不再限制周二了，改为每天 22:00 之后都可以发。",
            "周二晚上 9 点",
        ),
    ],
)  # fmt: skip
def test_the_clause_with_the_value_changes_not_the_remark_sharing_words(
    rule: str, change: str, old: str
) -> None:
    ledger = ledger_of_said("Put the chat service behind the new gateway.", rule, change)
    assert not quoting(ledger, old)


# -- the goal's old values, quoted elsewhere ------------------------------------------------------


def test_an_error_quoting_a_changed_goal_value_says_it_changed() -> None:
    ledger = ledger_of_said(
        "Build the nightly export; the files go to /srv/out/nightly and are named by date.",
        "the disk is full there, so the export directory changes to /data/out/nightly",
    )
    note = revision_note(ledger, "ls /srv/out/nightly/2024-01-02.csv: No such file")
    assert "/srv/out/nightly changed to /data/out/nightly" in note


#: The offline summary's lines listing paths and identifiers.
LISTS = ("- Paths: ", "- Identifiers: ")


def summaries(tmp_path: Path, track: str, turns: list[str]) -> list[str]:
    """The summaries of two compactions of ``turns`` on ``track`` (offline, or the fact-free
    model whose facts only the gate keeps)."""
    file = tmp_path / f"{track}.jsonl"
    write_turns(file, turns, reply="Noted.")
    plugins = [("factfree", FactFree())] if track == "factfree" else []
    return [e["summary"] for e in compactions(file, 2, *plugins, summarizer=track)]


@pytest.mark.parametrize("track", ["offline", "factfree"])
def test_a_terse_value_changed_later_is_never_current_after_compactions(
    tmp_path: Path, track: str
) -> None:
    turns = [
        "We're tuning the render farm scheduler. The queue keeps maxJobs 12, and never "
        "preempt the lighting renders.",
        "the nodes overheat, drop maxJobs to 6.",
    ]
    for summary in summaries(tmp_path, track, turns):
        current = [
            line
            for line in summary.splitlines()
            if "maxJobs 12" in line and "changed" not in line and not line.startswith("#")
        ]
        assert "never preempt the lighting renders" in summary
        assert "drop maxJobs to 6" in summary
        assert not [line for line in current if "Done" not in line], current


def test_a_file_of_the_goal_moved_elsewhere_is_told_as_changed() -> None:
    ledger = ledger_of_said(
        "帮我给这个小游戏加自动存档，存档写在 /home/dev/saves/slot.sav 里，每关结束存一次。",
        "共享盘挂好了，存档位置改成 /mnt/shared/saves/slot_v2.sav",
    )
    note = ledger.goal_note()
    assert '"/home/dev/saves/slot.sav" changed to "/mnt/shared/saves/slot_v2.sav"' in note


@pytest.mark.parametrize("track", ["offline", "factfree"])
def test_a_goal_file_moved_later_is_no_current_path_or_identifier(
    tmp_path: Path, track: str
) -> None:
    turns = [
        "帮我做每周流失报表，数据文件在 /srv/wh/churn.duckdb，周一发。",
        "数据文件改成 /mnt/nas/wh/churn_v2.duckdb",
    ]
    for summary in summaries(tmp_path, track, turns):
        lists = [line for line in summary.splitlines() if line.startswith(LISTS)]
        assert "/mnt/nas/wh/churn_v2.duckdb" in summary
        assert not [line for line in lists if "/srv/wh/churn.duckdb" in line], lists


def test_a_sentence_of_the_goal_changed_later_is_no_longer_shown_in_it() -> None:
    ledger = ledger_of_said(
        "帮我把日志采集服务迁到新集群。采样周期 1000ms，落库用 MySQL。", "采样周期改成 500ms"
    )
    assert ledger.goal().text == "帮我把日志采集服务迁到新集群。采样周期 1000ms，落库用 MySQL。"
    assert goal_shown(ledger) == "帮我把日志采集服务迁到新集群。…，落库用 MySQL。"
    assert {"落库用 MySQL", "采样周期改成 500ms"} <= live(ledger)  # the other clause stays


@pytest.mark.parametrize("track", ["offline", "factfree"])
def test_a_changed_goal_sentence_is_never_current_after_compactions(
    tmp_path: Path, track: str
) -> None:
    turns = ["帮我把日志采集服务迁到新集群。采样周期 1000ms，落库用 MySQL。", "采样周期改成 500ms"]
    for summary in summaries(tmp_path, track, turns):
        assert "采样周期改成 500ms" in summary and "落库用 MySQL" in summary
        assert "采样周期 1000ms" not in summary  # only a change note names the old value


def test_a_chinese_number_said_again_without_a_cue_is_no_change() -> None:
    ledger = ledger_of_said(
        "帮我把订单服务的接口整理一下。", "每页 20 条", "分页组件 50 行代码就够"
    )
    assert "每页 20 条" in live(ledger)


def test_a_chinese_key_changes_only_the_number_whose_key_shares_most() -> None:
    ledger = ledger_of_said(
        "给图片服务做容量规划。",
        "线上 4 台机器。",
        "上传上限调到 500 张，设计要批量传。",
        "线上机器数改成 6。",
    )
    assert "上传上限调到 500 张，设计要批量传。" in live(ledger)
    assert not quoting(ledger, "4 台")


@pytest.mark.parametrize(
    ("change", "listed"),
    [
        ("the config main.conf moved", ["/etc/px/main.conf"]),  # named again: still in use
        ("the config moved to /srv/px.conf", []),  # changed away: an old value
    ],
)
def test_an_identifier_cut_from_the_goal_is_listed_only_if_its_change_names_it(
    change: str, listed: list[str]
) -> None:
    ledger = Ledger()
    goal = ledger.new_fact("goal", "Fix the proxy. Config is /etc/px/main.conf, 2 workers.", "e0")
    part = ledger.new_fact("constraint", "Config is /etc/px/main.conf, 2 workers.", "e0")
    part.parent = goal.id
    ledger.new_fact("identifier", "/etc/px/main.conf", "e0", parent=part.id)
    ledger.retire(part, ledger.new_fact("constraint", change, "e1"))
    assert "/etc/px/main.conf" not in goal_shown(ledger)
    assert [f.text for f in kept_identifiers(ledger, record=False)] == listed


def test_a_changed_value_sharing_no_word_with_the_old_one_names_no_recall_query(
    tmp_path: Path,
) -> None:
    turns = ["帮我把日志采集服务迁到新集群。采样周期 1000ms，落库用 MySQL。", "采样周期改成 500ms"]
    for summary in summaries(tmp_path, "offline", turns):
        assert '"采样周期改成 500ms" (changed earlier)' in summary  # no fact id to search for


def test_a_changed_value_sharing_only_a_number_with_the_old_one_names_no_recall_query(
    tmp_path: Path,
) -> None:
    turns = [
        "Port the portal to PHP 7.4. 数据库在 10.0.3.15，别动 LEDES 导出。",
        "数据库改到 10.0.9.20",
    ]
    for summary in summaries(tmp_path, "offline", turns):
        assert '"数据库改到 10.0.9.20" (changed earlier)' in summary  # not `recall "10"`
