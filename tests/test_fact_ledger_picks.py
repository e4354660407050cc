"""An option of the assistant's picked by its place (issue 23, items 1 and 2): the option, in
the assistant's words, is the decision, and it replaces the rule the offer was about."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_turns, live_rules
from tether.builtin_plugins.memory.fact_ledger.picked import offered_options, picked


@pytest.mark.parametrize(
    ("rule", "offer", "reply", "option"),
    [
        (
            "Render the invoices with wkhtmltopdf.",
            "wkhtmltopdf is unmaintained and breaks the invoices on CSS grid. I see two ways: "
            "(1) pin an old wkhtmltopdf build, or (2) render with headless Chromium. Which?",
            "the second one please",
            "render with headless Chromium",
        ),
        (
            "Keep the nightly report in a shared spreadsheet.",
            "The shared spreadsheet hits its row limit for the nightly report.\n"
            "Option A: split the report per month\nOption B: load it into BigQuery\n"
            "What do you think?",
            "ok, option B",
            "load it into BigQuery",
        ),
        (
            "日志先写到本地文件 /var/log/app.log。",
            "本地文件日志不好检索。方案一：接入 ELK；方案二：用阿里云 SLS。你选哪个？",
            "就按方案一来",
            "接入 ELK",
        ),
    ],
)  # fmt: skip
def test_a_picked_option_is_the_decision_and_replaces_the_rule(
    rule: str, offer: str, reply: str, option: str
) -> None:
    ledger = ledger_of_turns(
        ("user", "Help me with the backlog. " + rule), ("assistant", offer), ("user", reply)
    )
    live = live_rules(ledger)
    assert option in live
    assert rule not in live
    assert reply not in live  # says nothing once compacted: retired into the option


def test_lettered_options_in_chinese_are_picked_by_letter() -> None:
    offer = "消息中间件有两个选择：方案A：继续用 ActiveMQ；方案B：迁到 RocketMQ。选哪个？"
    assert picked("选B吧", offered_options(offer)) == "迁到 RocketMQ"
    listed = "A. 每天全量同步\nB. 按 binlog 增量同步\n你看用哪个？"
    assert picked("B", offered_options(listed)) == "按 binlog 增量同步"


def test_a_reply_naming_no_place_picks_nothing() -> None:
    options = offered_options("Two ways: (1) add an index, or (2) partition the table. Which?")
    assert options == ["add an index", "partition the table"]
    assert picked("first, run the tests again", options) == ""
    assert picked("the latter", options) == "partition the table"
    assert picked("第一个吧", options) == "add an index"


def test_a_rule_the_offer_is_not_about_stays() -> None:
    ledger = ledger_of_turns(
        ("user", "Ship the CLI. Never print secrets to stdout."),
        ("assistant", "For packaging: (1) a zipapp, or (2) a PyInstaller binary. Which one?"),
        ("user", "2"),
    )
    assert "Never print secrets to stdout." in live_rules(ledger)
    assert "a PyInstaller binary" in live_rules(ledger)


def test_a_fault_found_in_a_listed_item_is_no_pick() -> None:
    ledger = ledger_of_turns(
        ("user", "Ship the CLI. Never print secrets to stdout."),
        (
            "assistant",
            "I found two issues: (1) the config loader leaks env vars, (2) the retry loop "
            "never stops. Which should I fix first?",
        ),
        ("user", "the second one is wrong, it stops after 5"),
    )
    assert "the retry loop never stops" not in live_rules(ledger)
    listed = ledger_of_turns(
        ("user", "Ship the CLI. Never print secrets to stdout."),
        ("assistant", "Done. Changes: (1) the loader reads TOML, (2) the retry loop backs off."),
        ("user", "second one looks good"),
    )
    assert "the retry loop backs off" not in live_rules(listed)


@pytest.mark.parametrize(
    ("reply", "place"),
    [
        ("1 吧。外部 flash 那颗料最近缺货", 0),
        ("2。上限摆在那里，先保守", 1),
        ("(b) only, the other one is too slow", 1),
        ("B でお願いします", 1),
        ("1で", 0),
    ],
)  # fmt: skip
def test_a_reply_opening_with_the_bare_mark_picks_it(reply: str, place: int) -> None:
    options = offered_options(
        "两个方案：\n1. 双分区，失败自动回滚\n2. 单分区加外部 flash\n你倾向哪个？"
    )
    assert picked(reply, options) == options[place]


@pytest.mark.parametrize(
    "reply", ["2 hours is fine", "A good idea, but later", "1. run the tests\n2. ship it"]
)
def test_a_number_or_letter_that_opens_a_sentence_picks_nothing(reply: str) -> None:
    assert picked(reply, ["add an index", "partition the table"]) == ""


def test_a_rule_sharing_only_a_word_and_the_count_of_options_stays() -> None:
    ledger = ledger_of_turns(
        ("user", "整理日志归档。日志保留两个副本，磁盘最多用 20GB。"),
        ("assistant", "关于副本存放有两个方案：\n1. 本地磁盘\n2. 对象存储\n你选哪个？"),
        ("user", "2 吧，本地磁盘不够"),
    )
    assert "对象存储" in live_rules(ledger)
    assert any("磁盘最多用 20GB" in text for text in live_rules(ledger))


def test_a_picked_option_never_replaces_a_prohibition() -> None:
    ledger = ledger_of_turns(
        ("user", "Speed up the build. Don't rebuild protobuf from source, it breaks the cache."),
        (
            "assistant",
            "The cache is warm again and the build passes. For the protobuf step: (1) run it in "
            "parallel, or (2) skip it when nothing changed. Which one?",
        ),
        ("user", "2, keep it simple"),
    )
    assert "skip it when nothing changed" in live_rules(ledger)
    assert "Don't rebuild protobuf from source, it breaks the cache." in live_rules(ledger)
