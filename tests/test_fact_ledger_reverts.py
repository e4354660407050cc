"""Going back to an earlier value (issue 23, item 2): the change is retired and the value it
replaced is in force again, verbatim; a remark on the reverted value retires with it."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules
from tether.builtin_plugins.memory.fact_ledger import Ledger


def live(ledger: Ledger) -> set[str]:
    return {f.text for f in ledger.live()}


@pytest.mark.parametrize(
    ("first", "change", "revert", "old", "middle"),
    [
        (
            "Fix the importer. Batches hold 500 rows.",
            "make the batches 2000 rows, the DB can take it",
            "the DB choked. go back to the old batch size.",
            "Batches hold 500 rows.",
            "make the batches 2000 rows, the DB can take it",
        ),
        (
            "Set up the mail relay. SMTP goes over port 587.",
            "switch the SMTP port to 2525, the ISP blocks 587",
            "the ISP unblocked it, revert to the previous port",
            "SMTP goes over port 587.",
            "switch the SMTP port to 2525, the ISP blocks 587",
        ),
        (
            "整理接口文档。接口超时设为 3 秒。",
            "接口超时改为 10 秒，第三方太慢。",
            "第三方修好了，超时用回原来的。",
            "接口超时设为 3 秒。",
            "接口超时改为 10 秒，第三方太慢。",
        ),
        (
            "写一个压测脚本。并发数用 50。",
            "并发数改成 200 看看。",
            "服务扛不住，还是用之前的并发数吧。",
            "并发数用 50。",
            "并发数改成 200 看看。",
        ),
    ],
)  # fmt: skip
def test_a_revert_puts_the_replaced_value_back(
    first: str, change: str, revert: str, old: str, middle: str
) -> None:
    ledger = ledger_of_said(first, change, revert)
    shown = live(ledger)
    assert old in shown
    assert middle not in shown
    back = next(f for f in ledger.live() if f.text == old)
    assert middle in [f.text for f in ledger.replaced(back)]


def test_undo_without_a_subject_takes_back_the_latest_change_and_its_remark() -> None:
    ledger = ledger_of_said(
        "Tune the JVM of the indexer. The heap stays at -Xmx2g.",
        "try -Xmx8g, the GC pauses are long",
        "-Xmx8g starved the sidecar. undo that.",
    )
    shown = live_rules(ledger)
    assert "The heap stays at -Xmx2g." in shown
    assert not any("-Xmx8g" in text for text in shown)


def test_a_revert_naming_a_new_value_is_a_change_not_a_revert() -> None:
    ledger = ledger_of_said(
        "Serve the API. Cache responses for 60s.",
        "cache them for 300s instead",
        "revert to 120s, 300s serves stale prices",
    )
    assert "Cache responses for 60s." not in live(ledger)


def test_a_revert_restores_only_the_clause_the_change_replaced() -> None:
    ledger = ledger_of_said(
        "Roll out the edge proxy. Pin envoy at 1.28.0, drain one node at a time.",
        "bump envoy to 1.30.1, we need the new filters",
        "1.30 crashes on ARM. revert to the old pin, envoy 1.28.0 again.",
    )
    texts = [f.text for f in ledger.live("constraint", "decision", "request")]
    assert any(t.startswith("Pin envoy at 1.28.0") for t in texts)
    assert not any("drain one node" in t and "envoy" in t for t in texts)  # not twice
    assert "drain one node at a time" in " ".join(texts)
    assert not any("1.30.1" in t or "new filters" in t for t in texts)


@pytest.mark.parametrize(
    ("said", "taken_back", "kept"),
    [
        (
            (
                "Fix the nightly sync. The sync pulls from the ERP replica.",
                "hmm, set catchup: true for the sync",
                "wait no, scratch that, catchup would hammer the ERP replica for days.",
            ),
            "hmm, set catchup: true for the sync",
            "The sync pulls from the ERP replica.",
        ),
        (
            (
                "整理报表导出。导出文件放在 /data/exports。",
                "导出频率改成每小时一次。",
                "当我没说，产品还没定。",
            ),
            "导出频率改成每小时一次。",
            "导出文件放在 /data/exports。",
        ),
    ],
)  # fmt: skip
def test_scratch_that_takes_back_the_latest_message_only(
    said: tuple[str, ...], taken_back: str, kept: str
) -> None:
    ledger = ledger_of_said(*said)
    shown = live_rules(ledger)
    assert taken_back not in shown
    assert kept in shown  # shares words with the reason given, but was not taken back


def test_scratch_that_with_a_new_value_is_a_change_not_a_take_back() -> None:
    ledger = ledger_of_said(
        "Rebuild the export job. The export stays under 20 minutes.",
        "We're on Node 18 in CI.",
        "CI runs Node 20 now.",
        "Scratch that limit, 35 minutes is fine since the report moved to 9am.",
    )
    shown = live_rules(ledger)
    assert "CI runs Node 20 now." in shown  # the latest message is not taken back
    assert "We're on Node 18 in CI." not in shown
    assert "The export stays under 20 minutes." not in shown
