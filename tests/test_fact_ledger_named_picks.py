"""A short yes naming the value an assistant's change question weighs ("sure, Avro it is"
after "… Avro would keep the schema. Change the encoding?") replaces the rule the question
was about (issue 23): the old value is no longer shown as current."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_turns

GOAL = ("user", "Write the ingestion service for the billing events.")


@pytest.mark.parametrize(
    ("rule", "offer", "reply"),
    [
        (
            "Encode the events as JSON lines.",
            "Batches done. JSON lines drop the integer widths of the amount field, and Avro "
            "would keep the schema beside the data. Change the encoding?",
            "sure, Avro it is",
        ),
        (
            "use marshmallow for validation",
            "A thought: marshmallow works, but the API layer already uses pydantic models "
            "everywhere. Should we move to pydantic for validation too, or keep marshmallow?",
            "ok go with pydantic",
        ),
    ],
)
def test_a_yes_naming_the_offered_value_replaces_the_rule(
    rule: str, offer: str, reply: str
) -> None:
    ledger = ledger_of_turns(GOAL, ("user", rule), ("assistant", offer), ("user", reply))
    old = next(f for f in ledger.facts if f.text == rule)
    assert not old.live
    assert reply in {f.text for f in ledger.facts if f.id == old.replaced_by}


@pytest.mark.parametrize(
    ("offer", "reply"),
    [
        # a question about a change, answered "no": the rule stays
        (
            "JSON lines drop the integer widths; Avro would keep them. Change the encoding?",
            "no, Avro is wrong for this",
        ),
        # the reply names nothing the question weighs
        (
            "JSON lines drop the integer widths; Avro would keep them. Change the encoding?",
            "sure, but later",
        ),
        # no question of change: a report that names both
        (
            "Batches done. JSON lines drop the integer widths; Avro would keep them.",
            "sure, Avro it is",
        ),
    ],
)
def test_without_an_accepted_named_change_the_rule_stays(offer: str, reply: str) -> None:
    rule = "Encode the events as JSON lines."
    ledger = ledger_of_turns(GOAL, ("user", rule), ("assistant", offer), ("user", reply))
    assert next(f for f in ledger.facts if f.text == rule).live


def test_a_rule_that_the_question_does_not_weigh_stays() -> None:
    """Only the rule whose value the question names is replaced: another rule sharing a
    word with the offer ("events") is not."""
    kept = "Keep the events in the eu-west-1 bucket."
    ledger = ledger_of_turns(
        GOAL,
        ("user", kept),
        ("user", "Encode the events as JSON lines."),
        ("assistant", "JSON lines drop the integer widths of the events; Avro keeps them. "
                      "Switch the encoding?"),
        ("user", "yes, Avro it is"),
    )  # fmt: skip
    assert next(f for f in ledger.facts if f.text == kept).live
    assert not next(f for f in ledger.facts if f.text.startswith("Encode the events")).live


def test_an_accepted_open_to_question_replaces_what_it_weighs() -> None:
    """ "Would you be open to switching …?" is a proposal; a bare yes to it replaces the rule
    naming what the message finds fault with."""
    rule = "for load tests we use Locust"
    offer = (
        "Locust tops out at 3k rps on one box here. Would you be open to switching load "
        "tests to k6? Its scripts are plain JS."
    )
    ledger = ledger_of_turns(GOAL, ("user", rule), ("assistant", offer), ("user", "yes, do it"))
    assert not next(f for f in ledger.facts if f.text == rule).live
    assert "Would you be open to switching load tests to k6?" in {
        f.text for f in ledger.live("decision")
    }


def test_a_pick_by_part_of_a_name_keeps_the_offers_full_name() -> None:
    """ "go with the m7i" names the offered "c5.m7i.xlarge" by a part: the offer's sentence
    naming it in full is kept as the decision. The question is too short to name what it
    weighs; the sentence finding a drawback does ("c5.r5.large runs out of …"), so that
    clause of the rule is replaced and the rest of it stays."""
    rule = "Cache node type c5.r5.large, Redis 7."
    offer = (
        "c5.r5.large runs out of network credits under the batch load. c5.m7i.xlarge has "
        "twice the baseline bandwidth. Go with m7i?"
    )
    ledger = ledger_of_turns(
        GOAL, ("user", rule), ("assistant", offer), ("user", "yeah go with the m7i")
    )
    live = {f.text for f in ledger.live("constraint", "decision")}
    assert "c5.m7i.xlarge has twice the baseline bandwidth." in live
    assert rule not in live and "Redis 7" in live


@pytest.mark.parametrize(
    ("rules", "offer", "reply"),
    [
        # an ordinary refactor question: the rule it mentions in passing stays
        (
            ["Use Typer for the CLI."],
            "The Typer app is wired up and the CLI commands work. Want me to move the CLI "
            "helpers into a utils module?",
            "yes please",
        ),
        (
            ["CLI 用 Typer 写。"],
            "Typer 的命令都接好了。要不要把 CLI 的辅助函数移到 utils 模块里？",
            "好的",
        ),
        # the accepted switch replaced its own rule; the other rule the offer names stays
        (
            ["Use FastAPI for the HTTP layer.", "Use Celery for background jobs."],
            "FastAPI is fine for the HTTP layer, but Celery is heavy for three small jobs. "
            "Want me to switch background jobs to arq?",
            "sure, go with arq",
        ),
        # a change of one part of what the rule covers: the rule stays
        (
            ["Keep all invoice data in MySQL."],
            "MySQL full-text search is limited for fuzzy names. Would you be open to moving "
            "invoice search to Meilisearch?",
            "yes, go ahead",
        ),
        (
            ["订单数据都存 MySQL。"],
            "MySQL 的全文检索不支持模糊匹配。要不要把订单搜索换成 Meilisearch？",
            "好的，就这么办",
        ),
        # a new version of a thing a rule names: not a switch away from another rule
        (
            ["Run Postgres 15 for the main database.", "Keep sessions in Redis."],
            "Postgres 15 lacks MERGE ... RETURNING; Redis sessions are fine. Upgrade to "
            "Postgres 16?",
            "sure, Postgres 16 it is",
        ),
    ],
)
def test_a_yes_leaves_the_rules_the_question_does_not_weigh(
    rules: list[str], offer: str, reply: str
) -> None:
    said = [("user", rule) for rule in rules]
    ledger = ledger_of_turns(GOAL, *said, ("assistant", offer), ("user", reply))
    kept = rules[:1] if "FastAPI" in rules[0] else rules
    for rule in kept:
        assert next(f for f in ledger.facts if f.text == rule).live, rule


def test_a_chinese_yes_to_a_switch_question_replaces_the_rule() -> None:
    rule = "日志用 CSV 格式写。"
    offer = "CSV 会丢掉字段类型，Parquet 能保留。要不要把日志格式换成 Parquet？"
    ledger = ledger_of_turns(
        GOAL, ("user", rule), ("assistant", offer), ("user", "好，就用 Parquet")
    )
    assert not next(f for f in ledger.facts if f.text == rule).live
