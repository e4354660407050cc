"""The fact ledger on sessions written by other people (issue 23): a subject named in one
language and changed in another (the concept tables), a change told by the shape of its value
with no cue word, casual change cues — and look-alike values for two parts that both stay
live."""

from __future__ import annotations

import pytest

from tether.builtin_plugins.memory.fact_ledger import Ledger, build_cues, build_ledger
from tether.builtin_plugins.memory.fact_ledger.cues import check_table


def ledger_of(*said: str, tables: dict | None = None) -> Ledger:
    turns = ["Let's get the notification service ready for the release.", *said]
    messages = [{"role": "user", "content": [{"type": "text", "text": t}]} for t in turns]
    return build_ledger(messages, [f"e{i}" for i in range(len(messages))], cue_tables=tables)


def live(ledger: Ledger) -> set[str]:
    return {f.text for f in ledger.live() if f.kind != "identifier"}


def assert_changed(old: str, new: str, **kw: dict) -> None:
    ledger = ledger_of(old, "Unrelated: the README needs a badge.", new, **kw)
    assert old not in live(ledger), f"{old!r} still live after {new!r}"
    assert new in live(ledger)
    retired = next(f for f in ledger.facts if f.text == old)
    assert ledger.get(retired.replaced_by) is not None


# -- 1. a subject named in one language, changed in the other --------------------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("队列用 SQS。", "switch the queue to NATS, we self-host now"),
        ("缓存用 Memcached。", "Redis for caching now, memcached lacks pub/sub"),
        ("The database is MySQL 8.", "数据库改成 PostgreSQL，运维只管 PG。"),
        ("默认分支是 master。", "Default branch is trunk now."),
        ("Search runs on Elasticsearch.", "搜索改用 OpenSearch，许可证的问题。"),
    ],
)  # fmt: skip
def test_a_subject_stated_in_one_language_changes_in_the_other(old: str, new: str) -> None:
    assert_changed(old, new)


def test_a_plugin_table_adds_a_subject_in_its_language() -> None:
    old, new = "Warteschlange ist Beanstalkd.", "Let's use Kafka for the queue instead."
    ledger = ledger_of(old, new)
    assert old in live(ledger)  # nothing says Warteschlange is a queue
    german = {"de": {"subject:queue": ["Warteschlange"], "constraint": ["muss"]}}
    assert_changed(old, new, tables=german)


def test_a_concept_entry_needs_a_key() -> None:
    with pytest.raises(ValueError, match="unknown cue kind 'subject:'"):
        check_table("de", {"subject:": ["Warteschlange"]})
    assert check_table("de", {"part:prod": ["Produktion"]}) == {"part:prod": ("Produktion",)}
    cues = build_cues({"de": {"part:prod": ["Produktion"]}})
    assert cues.concepts.keys("Timeout in Produktion: 30s", "part:") == {"prod"}


# -- 2. a change told by the value's shape, no cue word ----------------------------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Keep the Docker image under 500MB.", "the image is allowed 800MB, we need CUDA"),
        ("请求超时 800 毫秒。", "request timeout 2s, upstream is slow today"),
        ("失败重试 3 次。", "retries: 5"),
        ("Heap is capped at 2GB.", "4 GB of heap, GC thrashes otherwise"),
        ("The API listens on port 8000.", "API port 8080, 8000 clashes with the profiler"),
        ("Deploy region: us-east-1.", "部署区域 eu-central-1，离用户近。"),
        ("Session tokens expire after 30 minutes.", "tokens expire after 2 hours"),
        ("Connection pool: 20.", "pool of 40 connections, the load test needs it"),
        ("每页 20 条。", "page size 50"),
    ],
)  # fmt: skip
def test_a_new_value_of_the_same_shape_and_subject_retires_the_old(old: str, new: str) -> None:
    assert_changed(old, new)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Spark 3.3 on the old cluster.", "Spark 3.4 on the new cluster."),
        ("Read timeout 5s.", "Write timeout 10s."),
        ("The API times out after 30s.", "The worker times out after 300s."),
        ("主库连接池 50。", "从库连接池 20。"),
        ("Retry webhooks 5 times.", "Retry emails 3 times."),
        ("Postgres on port 5432.", "Redis on port 6379."),
        ("Grafana listens on port 3000.", "Prometheus listens on port 9090."),
        ("Timeout for staging is 30s.", "Timeout for prod is 60s."),
        ("Upload limit is 10MB.", "Avatar images stay under 1MB."),
        ("缓存过期 5 分钟。", "会话过期 30 分钟。"),
        ("Heap is capped at 2GB.", "Disk quota is 20GB."),
        ("上传上限 10MB。", "日志文件上限 100MB。"),
        ("Batch size 500 for the backfill job.", "Batch size 50 for the realtime consumer."),
    ],
)  # fmt: skip
def test_look_alike_values_of_two_parts_both_stay_live(first: str, second: str) -> None:
    assert {first, second} <= live(ledger_of(first, second))


def test_two_values_in_one_message_both_stay_live() -> None:
    both = "Retry limit 3 for pushes. Retry limit 6 for e-mails."
    assert {"Retry limit 3 for pushes.", "Retry limit 6 for e-mails."} <= live(ledger_of(both))


def test_the_part_a_change_names_is_the_one_it_changes() -> None:
    ledger = ledger_of(
        "Batch size 500 for the backfill job.",
        "Batch size 50 for the realtime consumer.",
        "the backfill batch can go up to 2000",
    )
    assert "Batch size 500 for the backfill job." not in live(ledger)
    assert "Batch size 50 for the realtime consumer." in live(ledger)


# -- 3. casual change cues ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("use npm", "nah, go with yarn"),
        ("数据库用 MySQL。", "let's do Postgres for the database"),
        ("重试 2 次。", "重试就用 3 次吧。"),
        ("单个文件上限 10MB。", "文件上限放宽到 25MB。"),
        ("Keep the lambda package under 50MB.", "meh, the lambda package can hit 120MB"),
        ("Build timeout is 10 minutes.", "bump the build timeout to 25 min"),
    ],
)  # fmt: skip
def test_a_casual_cue_with_a_new_value_is_a_change(old: str, new: str) -> None:
    assert_changed(old, new)


def test_a_casual_cue_without_a_value_of_that_subject_changes_nothing() -> None:
    rule = "The public API must stay importable from utils."
    ledger = ledger_of(rule, "Let's go with re-exports in utils/__init__.py rather than shims.")
    assert rule in live(ledger)


def test_a_request_for_a_value_is_not_read_as_a_task() -> None:
    ledger = ledger_of("请求超时 800 毫秒。")
    assert next(f for f in ledger.facts if f.text == "请求超时 800 毫秒。").kind == "constraint"


def test_a_time_phrase_is_no_part_but_a_named_part_is() -> None:
    ledger = ledger_of(
        "Autoscaler max 12 nodes.", "Staging runs 3 nodes.", "max nodes 30 for the launch week"
    )
    assert "Autoscaler max 12 nodes." not in live(ledger)
    assert "Staging runs 3 nodes." in live(ledger)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Web bundle under 40KB.", "移动端包体上限 3MB。"),
        ("生产环境超时 30 秒。", "Staging timeout 90s."),
    ],
)  # fmt: skip
def test_parts_named_in_two_languages_keep_both_values(first: str, second: str) -> None:
    assert {first, second} <= live(ledger_of(first, second))


def test_a_verb_is_not_a_part() -> None:
    old = "no wait, write it down as 256MB: cache size 256MB."
    assert_changed(old, "cache size 1GB, the hit rate is poor")


def test_one_character_topics_before_a_long_common_run_are_two_things() -> None:
    first, second = "主站图片上限 2MB。", "分站图片上限 5MB。"
    assert {first, second} <= live(ledger_of(first, second))


def test_this_one_names_no_part() -> None:
    assert_changed("Keep the zip under 20MB.", "the zip can be 35MB for this one")
