"""An option of the assistant's picked by its place (issue 23, items 1 and 2): the option, in
the assistant's words, is the decision, and it replaces the rule the offer was about."""

from __future__ import annotations

import pytest

from tether.builtin_plugins.memory.fact_ledger import Ledger, build_ledger
from tether.builtin_plugins.memory.fact_ledger.picked import offered_options, picked


def ledger_of(*turns: tuple[str, str]) -> Ledger:
    messages = [{"role": role, "content": [{"type": "text", "text": t}]} for role, t in turns]
    return build_ledger(messages, [f"e{i}" for i in range(len(messages))])


def shown(ledger: Ledger) -> set[str]:
    return {f.text for f in ledger.live("constraint", "decision", "request")}


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
    ledger = ledger_of(
        ("user", "Help me with the backlog. " + rule), ("assistant", offer), ("user", reply)
    )
    live = shown(ledger)
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
    ledger = ledger_of(
        ("user", "Ship the CLI. Never print secrets to stdout."),
        ("assistant", "For packaging: (1) a zipapp, or (2) a PyInstaller binary. Which one?"),
        ("user", "2"),
    )
    assert "Never print secrets to stdout." in shown(ledger)
    assert "a PyInstaller binary" in shown(ledger)


def test_a_fault_found_in_a_listed_item_is_no_pick() -> None:
    ledger = ledger_of(
        ("user", "Ship the CLI. Never print secrets to stdout."),
        (
            "assistant",
            "I found two issues: (1) the config loader leaks env vars, (2) the retry loop "
            "never stops. Which should I fix first?",
        ),
        ("user", "the second one is wrong, it stops after 5"),
    )
    assert "the retry loop never stops" not in shown(ledger)
    listed = ledger_of(
        ("user", "Ship the CLI. Never print secrets to stdout."),
        ("assistant", "Done. Changes: (1) the loader reads TOML, (2) the retry loop backs off."),
        ("user", "second one looks good"),
    )
    assert "the retry loop backs off" not in shown(listed)
