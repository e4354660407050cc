"""The fact ledger on wordings no table lists (issue 23, blind sessions): a negation inside a
clause that describes a thing makes no rule; a subject named by its own words changes without
a table entry; a rule retired for one value keeps its other clauses; a sentence that only
remarks on the old value retires with it; revocations by a closing phrase or a bare negation
of a flag; a statement with a value that no cue classifies is kept by the gate."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ledger_helpers import FactFree, compactions, write_turns
from tether.builtin_plugins.memory.fact_ledger import Ledger, build_ledger, stored_ledger
from tether.builtin_plugins.memory.fact_ledger.cues import build_cues, default_cues
from tether.builtin_plugins.memory.fact_ledger.extract import classify
from tether.builtin_plugins.memory.fact_ledger.noted import noted


def ledger_of(*said: str) -> Ledger:
    turns = ["Let's get the export service ready for the release.", *said]
    messages = [{"role": "user", "content": [{"type": "text", "text": t}]} for t in turns]
    return build_ledger(messages, [f"e{i}" for i in range(len(messages))])


def live(ledger: Ledger) -> set[str]:
    return {f.text for f in ledger.live() if f.kind in ("constraint", "decision")}


def shown_as_current(ledger: Ledger, value: str) -> list[str]:
    return [text for text in live(ledger) if value in text]


# -- a negation that describes a thing is no rule -----------------------------------------------


@pytest.mark.parametrize(
    "sentence",
    [
        "hmm, RabbitMQ needs a cluster we don't have.",
        "The flaky login spec needs a seeded tenant we don't have in CI yet.",
        "The old exporter used a CSV writer that we never trusted.",
        "Temporal doesn't support our cron syntax, which we never documented anyway.",
    ],
)
def test_a_negation_inside_a_describing_clause_makes_no_rule(sentence: str) -> None:
    assert classify(sentence, default_cues(), remark=True) == "request"


@pytest.mark.parametrize(
    "sentence",
    [
        "Don't log tokens.",
        "we don't deploy on Fridays.",
        "but you can't skip CI",
        "The bundle can't exceed 2 MB.",
        "Tests never hit the network.",
        "ah we don't pull in mocking libraries here, just stdlib table tests",
        "tbh we never squash merge in this repo",
        "Honestly we don't ship on Fridays.",
    ],
)
def test_a_negation_addressed_to_the_agent_is_still_a_rule(sentence: str) -> None:
    assert classify(sentence, default_cues()) == "constraint"


def test_a_rule_beside_a_described_negation_stays_a_rule() -> None:
    said = "The DAG needs a connection id we don't have yet; ask me before creating one."
    assert classify(said, default_cues(), remark=True) == "constraint"


def test_a_described_negation_leaves_no_stale_value_after_a_revert() -> None:
    ledger = ledger_of(
        "let's try RabbitMQ instead of SQS for the job queue, latency on SQS is annoying",
        "hmm, RabbitMQ needs a cluster we don't have. revert that — stay on SQS.",
    )
    assert shown_as_current(ledger, "RabbitMQ") == []
    assert "revert that — stay on SQS." in live(ledger)


# -- a subject named by its own words ------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "value"),
    [
        ("水位线 80%，超过就告警。", "水位线调到 70%，之前太晚了", "80%"),
        ("退避 2 秒。", "退避给 5 秒吧，对方扛不住", "2 秒"),
        ("分区键用 shop_id", "分区键换 tenant_id，会热点", "shop_id"),
        ("主色用 #1677ff", "主色换成 #ff4d4f，老板说蓝色太冷", "#1677ff"),
        ("Compression codec is snappy.", "codec: zstd, storage is cheaper that way", "snappy"),
        ("the nightly trigger fires at 02:30 UTC", "trigger time 04:15 UTC, books close", "02:30"),
        ("Sentry sample rate 0.25 for the dashboard.", "sentry sample rate down to 0.1", "0.25"),
        ("Backups: nightly, keep 14 days.", "keep 30 days of backups, audit wants it", "14 days"),
    ],
)  # fmt: skip
def test_a_subject_no_table_lists_gets_a_new_value(old: str, new: str, value: str) -> None:
    ledger = ledger_of(old, "Unrelated: the README needs a badge.", new)
    assert shown_as_current(ledger, value) == []
    assert new in live(ledger)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Use 8 workers for the ingest consumer.", "Use 2 workers for the mailer."),
        ("Ticket #123 is blocked on review.", "Ticket #456 is blocked on review."),
        ("CUDA 12.1 on the A100 nodes.", "CUDA 11.8 on the T4 nodes."),
        ("对账文件放在 /data/recon/inbox 目录。", "对账报告输出到 /data/recon/reports 目录。"),
        ("The API times out after 30s.", "The worker times out after 300s."),
    ],
)
def test_two_subjects_with_words_in_common_both_stay(first: str, second: str) -> None:
    assert {first, second} <= live(ledger_of(first, second))


# -- a rule retired for one value keeps its other clauses ------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "kept", "gone"),
    [
        (
            "it reads from the replica at wh-ro-2.corp:5433 and writes parquet to "
            "s3://fin-exports/daily/.",
            "warehouse folks moved the replica, it lives on wh-ro-5.corp:5433 now",
            "writes parquet to s3://fin-exports/daily/",
            "wh-ro-2.corp",
        ),
        (
            "Staging nodes get 4 GB heap, prod nodes get 16 GB heap.",
            "prod heap to 24 GB, we saw GC storms",
            "Staging nodes get 4 GB heap",
            "16 GB",
        ),
        ("主库连接池 50，从库连接池 20。", "从库连接池加到 40", "主库连接池 50", "从库连接池 20"),
        (
            "index refresh: 30s on the logs index, 1s on the products index",
            "products index refresh 5s, it is killing the indexer",
            "index refresh: 30s on the logs index",
            "1s on the products",
        ),
        (
            "Backups: nightly to /mnt/backup/pg, keep 14 days.",
            "keep 30 days of backups, audit wants a month",
            "Backups: nightly to /mnt/backup/pg",
            "14 days",
        ),
    ],
)
def test_the_other_clauses_of_a_changed_rule_stay_live(
    old: str, new: str, kept: str, gone: str
) -> None:
    ledger = ledger_of(old, new)
    assert kept in live(ledger)
    assert shown_as_current(ledger, gone) == []
    assert old not in live(ledger)


def test_the_identifiers_of_a_kept_clause_stay_live() -> None:
    ledger = ledger_of(
        "it reads from the replica at wh-ro-2.corp:5433 and writes to s3://fin-exports/daily/.",
        "the replica lives on wh-ro-5.corp:5433 now",
    )
    identifiers = {f.text for f in ledger.live("identifier")}
    assert "s3://fin-exports/daily/" in identifiers
    assert "wh-ro-2.corp:5433" not in identifiers


# -- a remark on the old value, revocations -----------------------------------------------------


def test_a_sentence_that_only_remarks_on_the_old_value_retires_with_it() -> None:
    ledger = ledger_of(
        "parquet files: 5000 rows each.",
        "5000 rows was too much for the downstream lambda. 2000 rows each.",
    )
    assert shown_as_current(ledger, "5000 rows") == []
    assert "2000 rows each." in live(ledger)


def test_a_new_value_that_names_the_old_one_in_passing_is_no_remark() -> None:
    new = "Model weights load from gs://rank-models/v9 — v7 had the tokenizer bug."
    ledger = ledger_of("Model weights load from gs://rank-models/v7.", new)
    assert new in live(ledger)
    assert "gs://rank-models/v9" in {f.text for f in ledger.live("identifier")} | live(ledger)


@pytest.mark.parametrize(
    "revoke",
    [
        "--legacy-fonts can go.",
        "no more --legacy-fonts",
        "no more --legacy-fonts, the new fonts render fine",
        "--legacy-fonts isn't needed",
    ],
)
def test_a_flag_is_revoked_by_a_closing_phrase_or_a_bare_negation(revoke: str) -> None:
    ledger = ledger_of(
        "Also put everything behind the flag --legacy-fonts until design signs off.",
        "Unrelated: the README needs a badge.",
        revoke,
    )
    assert "Also put everything behind the flag --legacy-fonts until design signs off." not in (
        {f.text for f in ledger.live()}
    )
    # nor is the flag left as a live identifier of its own (the summary's Identifiers line)
    assert not [f for f in ledger.live("identifier") if f.text.endswith("--legacy-fonts")]


def test_a_chinese_move_verb_changes_the_time() -> None:
    ledger = ledger_of(
        "每天 6 点跑", "Unrelated: the README needs a badge.", "改到 7 点跑，数据还没同步完"
    )
    assert "每天 6 点跑" not in live(ledger)


def test_a_phrase_closed_by_a_dollar_matches_only_at_the_end() -> None:
    cues = build_cues({"en": {"revoke": ["can go $"]}})
    assert cues.has("revoke", "--legacy-fonts can go.")
    assert not cues.has("revoke", "we can go with Redis for the cache")


# -- recall first: a statement with a value, no cue, in a long message --------------------------

LONG = (
    "Please get the thumbnailer service production ready. It crashes on large PNGs and nobody "
    "has looked at it in months, so expect some rot. Retries happen 3 times with jitter. The "
    "CDN caches thumbnails for 7 days. Start by reproducing the crash with tests/data/huge.png."
)


def test_the_gate_keeps_a_cueless_statement_with_a_value(tmp_path: Path) -> None:
    file = tmp_path / "recall.jsonl"
    write_turns(file, ["Get the thumbnailer ready.", LONG, "Add a test for the size guard."])
    entries = compactions(file, 3, ("factfree", FactFree()), summarizer="factfree")
    for entry in entries:
        summary = entry["summary"]
        assert "Retries happen 3 times with jitter." in summary
        assert "The CDN caches thumbnails for 7 days." in summary
        assert "Add a test for the size guard." not in summary  # a task may go once done
        ledger = stored_ledger(entry["details"])
        assert ledger is not None
        noted = [f for f in ledger.live("request") if "Retries happen" in f.text]
        assert noted, "kept as a request: under Done, never shown as current"


def test_noted_statements_need_a_value_and_no_task() -> None:
    cues = default_cues()
    assert noted("Retries happen 3 times with jitter.", cues)
    assert noted("Thumbnails come out at 320px wide, JPEG quality 82.", cues)
    assert not noted("Turn 8: check this output.", cues)  # a bare number and a task
    assert not noted("Raise the guard accordingly and add a test.", cues)
    assert noted("make tokens last 60m, people get logged out mid-demo", cues)
    assert not noted("Start by reproducing the crash with tests/data/huge.png.", cues)
    assert not noted("Which port is it on, 8080?", cues)
    assert not noted('@tool bash {"command": "python3 noisy.py 419"}', cues)  # a directive
