"""The old value named again to say why it changed is recalled, not set (issue 23):
"… retries=5. 之前那个 retries=3 太少" keeps retries=5 in force; a revert cue whose clause finds
fault with what it names ("the previous one at 01:30 was too early") brings nothing back."""

from __future__ import annotations

import pytest

from tests.ledger_helpers import ledger_of_said, live_rules

START = "Move the nightly sync from cron to the scheduler service."


@pytest.mark.parametrize(
    ("rule", "change", "reason", "new"),
    [
        (
            "- poll with max_inflight=4",
            "from now on max_inflight=16 for every queue.",
            "The max_inflight=4 we had left the workers idle half the night.",
            "max_inflight=16",
        ),
        (
            "- 拉取并发 max_inflight=4",
            "以后并发都 max_inflight=16。",
            "之前那个 max_inflight=4 太保守了，夜里机器一半时间闲着。",
            "max_inflight=16",
        ),
    ],
)
def test_the_old_value_named_as_the_reason_keeps_the_new_one(
    rule: str, change: str, reason: str, new: str
) -> None:
    ledger = ledger_of_said(START, rule, f"{change} {reason}")
    live = {f.text for f in ledger.live("identifier")}
    assert new in live
    assert not any("=4" in text for text in live)
    assert reason not in live_rules(ledger)  # a reason for the change, shown by the change


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        ("timeout=60 from now on. hmm, actually no, keep timeout=20, sorry.", "timeout=20"),
        ("workers=8 in prod; staging stays at workers=4.", "workers=4"),
        ("Set timeout=45. Actually no, keep the timeout=20 we had.", "timeout=20"),
        ("prod gets workers=8; 测试环境保持原来的 workers=4", "workers=4"),
    ],
)
def test_a_value_named_again_without_recalling_it_stays_a_value(message: str, kept: str) -> None:
    """Only a value named as the old one ("之前那个", "the … we had") or found wanting is
    recalled: a value the message keeps, or gives a place of its own, stays live."""
    ledger = ledger_of_said(START, "- timeout=20\n- workers=4", message)
    assert any(kept in f.text for f in ledger.live())


@pytest.mark.parametrize(
    "remark",
    [
        "之前那个 01:30 太早了，快照那时还没做完。",
        "the previous one at 01:30 was too early, the snapshot still runs then.",
    ],
)
def test_a_value_found_fault_with_is_neither_reverted_to_nor_set(remark: str) -> None:
    """A revert cue whose clause finds fault with the value it names recalls it: the
    change stays in force, and the remark sets nothing."""
    first, later = "- 同步时间 01:30", "对了 同步时间 05:00，快照 4 点多才做完"
    ledger = ledger_of_said(START, f"要求：\n{first}\n- 失败重试 3 次", later, remark)
    rules = live_rules(ledger)
    assert later in rules
    assert first not in rules


def test_what_counts_as_finding_fault() -> None:
    from tether.builtin_plugins.memory.fact_ledger.faulted import faulted

    assert faulted("500 MB", "the 500 MB cap is too small, make it 2 GB")
    assert faulted("30 秒", "30 秒太慢了，改成 10 秒")
    assert not faulted("Redis", "use Redis too")
    assert not faulted("2 GB", "the 500 MB cap is too small, make it 2 GB")
    assert not faulted("2000", "批大小 2000 不够再调")  # if it is not enough, adjust later
    assert not faulted("8 workers", "Make it 8 workers too please, like staging.")


@pytest.mark.parametrize(
    "message",
    [
        "以后并发都 max_inflight=16。之前那个 max_inflight=4 太保守了。",
        "max_inflight=16 from now on; the max_inflight=4 we had left the workers idle.",
    ],
)
def test_an_old_value_never_on_record_replaces_nothing(message: str) -> None:
    """The old value is named in the very message that first states the setting: no rule of
    it is on record, and it still does not replace the new one."""
    ledger = ledger_of_said(START, message)
    live = {f.text for f in ledger.live("identifier")}
    assert "max_inflight=16" in live
    assert "max_inflight=4" not in live
    assert any("max_inflight=16" in f.text for f in ledger.live("constraint"))


@pytest.mark.parametrize(
    ("first", "change", "revert", "gone"),
    [
        ("副本数 2 个。", "改成 6 个副本。", "还是用回 2 个副本吧 6 个太多了", "6 个副本"),
        (
            "Run 2 replicas.",
            "Make it 6 replicas.",
            "go back to 2 replicas, 6 is too many",
            "6 replicas",
        ),
    ],
)
def test_a_revert_whose_fault_is_the_other_values_still_reverts(
    first: str, change: str, revert: str, gone: str
) -> None:
    """The fault after the value gone back to is the other value's: the revert holds."""
    ledger = ledger_of_said(START, first, change, revert)
    assert not any(gone in f.text for f in ledger.live("constraint", "decision"))


def test_an_old_value_said_to_be_fine_somewhere_stays() -> None:
    ledger = ledger_of_said(
        START, "- workers=4", "Set workers=8; workers=4 like we had is fine for staging."
    )
    assert "workers=4" in {f.text for f in ledger.live("identifier")}
