"""What the goal shows once the values of its sentences changed one by one (issue 23): a
clause that a first change left standing is cut from the goal when a later change retires it
too, in any language."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said
from tether.builtin_plugins.memory.fact_ledger.goal import goal_shown


@pytest.mark.parametrize(
    ("opening", "changes", "old", "kept"),
    [
        (
            "Morning. I am building a thumbnail service for the photo app and we need small "
            "previews out of it. Use libvips 8.14 from the distro packages, thumbnails of 256 "
            "pixels, and upload them to gs://thumbs-prod.",
            [
                "the designers want 320 pixel thumbnails instead, 256 looks blurry",
                "libvips 8.14 leaks memory on big TIFFs, switch to libvips 8.15 please",
                "and upload to gs://thumbs-qa instead of prod for now",
            ],
            ["8.14", "gs://thumbs-prod", "256"],
            "we need small previews out of it.",
        ),
        (
            "帮我写一个图片缩略图服务。用 libvips 8.14，缩略图 256 像素，结果上传到 oss://thumbs-prod。",
            ["缩略图改成 320 像素", "libvips 换成 8.15", "上传改为 oss://thumbs-qa"],
            ["8.14", "oss://thumbs-prod", "256"],
            "帮我写一个图片缩略图服务。",
        ),
    ],
)
def test_clauses_changed_one_by_one_all_leave_the_goal(
    opening: str, changes: list[str], old: list[str], kept: str
) -> None:
    shown = goal_shown(ledger_of_said(opening, *changes))
    assert kept in shown
    assert [value for value in old if value in shown] == []
    assert "…, …" not in shown and "…，…" not in shown  # neighbouring cuts read as one


def test_a_clause_no_later_change_touched_stays_in_the_goal() -> None:
    shown = goal_shown(
        ledger_of_said(
            "Morning. I am writing a cron job for the backup host and we need old archives "
            "pruned. Use 7 daily copies, write the log to /var/log/prune.log, and run it "
            "as the backup user.",
            "use 14 daily copies instead",
        )
    )
    assert "/var/log/prune.log" in shown and "run it as the backup user" in shown
    assert "7 daily" not in shown


@pytest.mark.parametrize(
    ("opening", "change", "old"),
    [
        (
            "Morning. We are building the billing worker for the shop and we need invoices "
            "out of it. Jobs wait in RabbitMQ until the worker picks them up.",
            "use SQS instead of RabbitMQ for the jobs, ops runs it already",
            "RabbitMQ",
        ),
        (
            "Morning. We are building the billing worker for the shop and we need invoices "
            "out of it. Also run it with -race, we had data races before.",
            "drop the -race flag, it slows the soak test too much",
            "-race",
        ),
        (
            "帮我写一个账单服务。任务队列先用 RabbitMQ。",
            "队列不再用 RabbitMQ，改用 SQS。",
            "RabbitMQ",
        ),
    ],
)
def test_a_goal_sentence_naming_a_product_or_flag_leaves_the_goal_when_changed(
    opening: str, change: str, old: str
) -> None:
    ledger = ledger_of_said(opening, change)
    assert old not in goal_shown(ledger)
    assert old in ledger.goal().text  # the goal itself stays verbatim


def test_a_goal_sentence_naming_a_product_nobody_changed_stays() -> None:
    said = (
        "Morning. We are building the billing worker for the shop and we need invoices out "
        "of it. Jobs wait in RabbitMQ until the worker picks them up."
    )
    ledger = ledger_of_said(said, "add a dead-letter queue for failed jobs")
    assert "Jobs wait in RabbitMQ until the worker picks them up." in goal_shown(ledger)


@pytest.mark.parametrize(
    ("opening", "change"),
    [
        (
            "帮我写一个推送网关。会话状态放 Redis，地址 redis-01:6379，日志写本地。",
            "Redis 改为 redis-cluster.internal:7000，单实例不够用了。",
        ),
        (
            "Morning. I am building a push gateway and we need it to hold the sessions. Use "
            "Redis for the sessions, at redis-01:6379, and write logs locally.",
            "switch Redis to redis-cluster.internal:7000 instead, one instance is not enough",
        ),
    ],
)
def test_every_clause_a_change_shares_most_words_with_leaves_the_goal(
    opening: str, change: str
) -> None:
    shown = goal_shown(ledger_of_said(opening, change))
    assert "redis-01" not in shown
    assert "日志写本地" in shown or "write logs locally" in shown


@pytest.mark.parametrize(
    ("opening", "change", "old", "kept"),
    [
        (
            "We're cutting the 2.0 release of the Beacon app. I need the build scripts tidied "
            "before Monday. Oldest Windows is Windows 10, oldest macOS 12.",
            "Update from the sync: oldest Windows becomes Windows 11 since the installer needs "
            "it, macOS stays where it is.",
            "Windows 10",
            "oldest macOS 12",
        ),
        (
            "给仓库管理后台做一次升级。我们要在月底前发布。"
            "数据库用 PostgreSQL 13，缓存用 Redis 6。",
            "开会定了：数据库升到 PostgreSQL 16，缓存保持不变。",
            "PostgreSQL 13",
            "缓存用 Redis 6",
        ),
    ],
)
def test_a_change_that_keeps_the_other_clause_cuts_only_its_own(
    opening: str, change: str, old: str, kept: str
) -> None:
    """The change names the other clause's subject only to keep it ("…, macOS stays where
    it is"): only the clause whose number the change replaces is cut."""
    shown = goal_shown(ledger_of_said(opening, change))
    assert old not in shown
    assert kept in shown
