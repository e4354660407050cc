"""What the readers of changes said with their reason must leave alone (issue 23).

Each case is a sentence a user writes that looks like a fault found, a bare value or a take-back
but changes nothing (or only the thing it names); found by attacking those readers."""

from __future__ import annotations

from tests.ledger_helpers import ledger_of_said, ledger_of_turns, live_rules
from tether.builtin_plugins.memory.fact_ledger.errorline import failure_lines

START = "We're building the nightly export service."


def _identifiers(ledger) -> set[str]:  # noqa: ANN001 - a Ledger
    return {f.text for f in ledger.live("identifier")}


def test_a_value_defended_against_a_fault_stays() -> None:
    ledger = ledger_of_said(
        START, "Use batch=512 for the encoder.", "batch=512 isn't too big, keep it."
    )
    assert "batch=512" in _identifiers(ledger)
    ledger = ledger_of_said(
        START, "Use batch=512 for the encoder.", "Ops said batch=512 was too big but it's fine."
    )
    assert "Use batch=512 for the encoder." in live_rules(ledger)


def test_a_fault_said_of_a_later_word_is_not_the_values() -> None:
    ledger = ledger_of_said(
        START,
        "Run the suite with --jobs=8, and keep --reruns=3 for the flaky UI tests.",
        "Bump jobs to 12, leave reruns alone.",
    )
    assert "--reruns=3" in _identifiers(ledger)
    assert any("--reruns=3" in rule for rule in live_rules(ledger))


def test_a_fault_with_one_parts_value_keeps_the_other_parts() -> None:
    ledger = ledger_of_said(
        START,
        "Staging uses shards=2, prod uses shards=12.",
        "shards=2 is too few on staging, set staging shards=4.",
    )
    assert "prod uses shards=12" in live_rules(ledger)


def test_a_bare_number_changes_a_count_kept_per_period() -> None:
    ledger = ledger_of_said(START, "Keep 30 daily exports.", "make it 45")
    assert "Keep 30 daily exports." not in live_rules(ledger)


def test_sizes_of_two_things_and_a_bare_size_change_neither() -> None:
    ledger = ledger_of_said(START, "训练集裁成 640x640。", "测试集用 320x320。")
    assert {"训练集裁成 640x640。", "测试集用 320x320。"} <= live_rules(ledger)
    ledger = ledger_of_said(START, "Icons are 64x64.", "Banners are 1200x300.", "make it 128x128")
    assert {"Icons are 64x64.", "Banners are 1200x300."} <= live_rules(ledger)


def test_a_bare_time_after_a_fault_changes_the_faulted_rule_only() -> None:
    ledger = ledger_of_said(
        START,
        "The compaction should run at 04:00 on Saturdays.",
        "Run the export at 23:30 on weekdays.",
        "the 23:30 slot collides with the billing close. 00:15 then.",
    )
    rules = live_rules(ledger)
    assert "The compaction should run at 04:00 on Saturdays." in rules
    assert "Run the export at 23:30 on weekdays." not in rules


def test_a_take_back_narrowed_after_a_dash_keeps_the_rule() -> None:
    first = "Use Memcached for sessions and page fragments."
    ledger = ledger_of_said(START, first, "We no longer need Memcached - just for fragments now.")
    assert first in live_rules(ledger)


def test_a_quantity_of_another_thing_names_no_rule() -> None:
    first = "Login tokens expire after 20 minutes."
    later = "Scratch the 20 min cooldown in the retry script, it's pointless."
    ledger = ledger_of_said(START, first, later)
    assert first in live_rules(ledger)


def test_an_unrelated_take_back_does_not_stop_a_bare_change() -> None:
    ledger = ledger_of_said(
        START, "Idle timeout is 15 minutes.", "We don't need the banner anymore. Make it 1 hour."
    )
    assert "Idle timeout is 15 minutes." not in live_rules(ledger)


def test_log_lines_with_a_clock_time_are_no_rules() -> None:
    message = "03:12 restore failed: checksum mismatch\n03:40 vacuum killed by OOM\nUse /srv/big."
    ledger = ledger_of_said(START, message)
    texts = {f.text for f in ledger.facts if f.kind in ("constraint", "request")}
    assert not any(text.startswith(("03:12", "03:40")) for text in texts)


def test_tasks_with_values_stay_tasks() -> None:
    for task in (
        "make the uploader accept 50 MB files",
        "Upgrade to 3.13 then rerun the benchmarks.",
        "Try 256 then watch the memory.",
    ):
        ledger = ledger_of_said(START, task)
        assert task in {f.text for f in ledger.live("request")}, task


def test_a_long_failure_keeps_its_failed_cases_before_warnings() -> None:
    output = "\n".join(
        [
            "> Task :app:test",
            "w: Could not resolve optional dependency, skipping",
            "w: unable to find Kotlin daemon, using fallback",
            "InvoiceTest > roundsTotals FAILED",
            "    java.lang.AssertionError at InvoiceTest.kt:41",
            "ExportTest > writesCsv FAILED",
            "    java.lang.AssertionError at ExportTest.kt:77",
            "2 tests completed, 2 failed",
            "FAILURE: Build failed with an exception.",
        ]
    )
    kept = failure_lines(output)
    assert not any("Could not resolve" in line or "unable to find" in line for line in kept)


def test_a_word_of_its_own_is_no_short_form_of_a_longer_one() -> None:
    ledger = ledger_of_said(START, "Log retention 14 days.", "Login retention 90 days.")
    assert {"Log retention 14 days.", "Login retention 90 days."} <= live_rules(ledger)


def test_where_one_part_goes_now_keeps_the_other_parts() -> None:
    first = "Prod alerts go to #pager-prod."
    ledger = ledger_of_said(START, first, "Staging alerts go to #pager-staging now.")
    assert first in live_rules(ledger)


def test_announcing_the_next_part_with_a_rule_keeps_the_rule() -> None:
    said = "Next thing is important: never write to the prod replica."
    ledger = ledger_of_said(START, said)
    assert said in {f.text for f in ledger.facts if f.live}


def test_a_chinese_pronoun_or_a_way_of_working_is_no_key_said_now() -> None:
    first = "我们不用外键，靠应用层保证一致性。"
    ledger = ledger_of_said(START, first, "我们现在是按天分区。")
    assert first in live_rules(ledger)


def test_one_character_apart_but_another_subject_is_no_swap() -> None:
    ledger = ledger_of_said(START, "日志保留三天。", "临时文件改成保留五天。")
    assert "日志保留三天。" in live_rules(ledger)


def test_a_benchmark_test_is_no_benchmark_index() -> None:
    ledger = ledger_of_said(START, "业绩基准用沪深300。", "基准测试跑 5 轮。")
    assert "业绩基准用沪深300。" in live_rules(ledger)


def test_a_thing_said_to_be_fine_is_not_what_a_yes_replaces() -> None:
    ledger = ledger_of_turns(
        ("user", START),
        ("user", "Store the exports in S3 Standard."),
        (
            "assistant",
            "zlib is slow on 20 GB files. S3 Standard isn't the problem. Switch to zstd?",
        ),
        ("user", "yes go with zstd"),
    )
    assert "Store the exports in S3 Standard." in live_rules(ledger)


def test_a_quoted_command_is_no_rule() -> None:
    ledger = ledger_of_said(START, "I ran this in the shell:\n> make deploy ENV=staging\nit hung.")
    assert "make deploy ENV=staging" not in live_rules(ledger)


def test_whether_or_not_is_a_rule_for_both() -> None:
    said = "不管是不是节假日，备份都要跑。"
    ledger = ledger_of_said(START, said)
    assert said in {f.text for f in ledger.live("constraint")}
