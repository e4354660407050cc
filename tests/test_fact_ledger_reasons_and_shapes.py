"""Changes said with their reason, and value shapes a change must see (issue 23).

A user who changes a value often names the old one to say why ("lr=3e-4 is too high, set lr
to 1e-4", "03:30 collides with the vacuum … 04:15 then"); the old value named that way is no
value in force and the reason goes with the change. Values written as 1e-4, 512x512 or "14
dailies" are values; "make the tile size 512x512" sets one; "Scratch the 20 s" names the rule
of 20 seconds."""

from __future__ import annotations

from tests.ledger_helpers import ledger_of_said, ledger_of_turns, live_rules
from tether.builtin_plugins.memory.fact_ledger.errorline import failure_lines

START = "We're tuning the training job and the nightly maintenance scripts."


def _live_texts(ledger) -> set[str]:  # noqa: ANN001 - a Ledger
    return {f.text for f in ledger.facts if f.live}


def test_an_old_setting_faulted_beside_its_new_value_is_replaced() -> None:
    first = "optimizer is AdamW with lr=3e-4."
    later = "lr=3e-4 is too high for the bigger model, set lr to 1e-4"
    ledger = ledger_of_said(START, first, later)
    assert first not in live_rules(ledger)
    assert later in live_rules(ledger)
    assert "lr=3e-4" not in {f.text for f in ledger.live("identifier")}


def test_dimensions_are_one_value_and_making_a_thing_a_value_sets_it() -> None:
    first = "tiles for the preview layer are 256x256."
    later = "make the preview tiles 512x512"
    ledger = ledger_of_said(START, first, later)
    assert first not in live_rules(ledger)
    assert later in {f.text for f in ledger.live("constraint")}


def test_making_a_thing_do_something_is_still_a_task() -> None:
    ledger = ledger_of_said(START, "make the tests pass on Python 3.12")
    assert "make the tests pass on Python 3.12" in {f.text for f in ledger.live("request")}


def test_a_take_back_naming_a_quantity_in_other_words_retires_its_rule() -> None:
    first = "cache entries live 45 minutes"
    later = "Scratch the 45 min, product wants 2 hours for the cart expiry."
    ledger = ledger_of_said(START, first, "the nightly job runs at 02:00", later)
    assert first not in live_rules(ledger)
    assert "the nightly job runs at 02:00" in live_rules(ledger)


def test_a_qualifier_in_another_clause_does_not_narrow_the_take_back() -> None:
    first = "Also the session TTL — make it 30 minutes, people got logged out during checkout."
    later = "Scratch the 30 min, product wants 4 hours for the session expiry."
    ledger = ledger_of_said(START, first, later)
    assert first not in live_rules(ledger)
    assert later in live_rules(ledger)


def test_kept_copies_per_period_are_one_unit() -> None:
    first = "keep 5 daily dumps."
    later = "actually retention: 10 dailies plus 2 monthlies."
    ledger = ledger_of_said(START, first, later)
    assert first not in live_rules(ledger)


def test_a_reason_naming_the_old_time_goes_with_the_change() -> None:
    ledger = ledger_of_said(
        START,
        "schedule the vacuum at 01:30",
        "hmm, 01:30 collides with the backup window. ugh. 02:45 then, final.",
    )
    live = _live_texts(ledger)
    assert "02:45 then, final." in live_rules(ledger)
    assert not any("01:30" in text for text in live)


def test_a_clock_time_opening_a_sentence_is_no_log_line() -> None:
    ledger = ledger_of_said(START, "run the export at 22:00", "23:15 then")
    assert "23:15 then" in live_rules(ledger)
    assert "run the export at 22:00" not in live_rules(ledger)


def test_a_short_failure_keeps_its_cause_and_unknown_field_lines() -> None:
    nextflow = (
        "ERROR ~ Error executing process > 'ALIGN (s7)'\n"
        "Caused by: Process exceeded memory limit (16 GB)"
    )
    assert "Caused by: Process exceeded memory limit (16 GB)" in failure_lines(nextflow)
    driver = (
        "[arm_bridge]: output recipe contains an unknown field: joint_torque_raw\n"
        "[ERROR] [ctl]: Failed to start"
    )
    assert any("unknown field: joint_torque_raw" in line for line in failure_lines(driver))


def test_a_bare_switch_after_a_take_back_replaces_what_was_taken_back() -> None:
    label = "The build pool is now pool-gpu-a10 and those have 8 GPUs."
    ledger = ledger_of_said(
        START,
        "only lint changed files, use eslint_d for that.",
        label,
        "We're not using eslint_d anymore, it leaks memory. Switch to biome instead.",
    )
    assert label in live_rules(ledger)


def test_a_label_said_now_replaces_an_older_label_of_one_family() -> None:
    first = "Workers are preemptible, pool gpu-small."
    ledger = ledger_of_said(START, first, "The worker pool is now gpu-a100-x8.")
    rules = live_rules(ledger)
    assert first not in rules
    assert "Workers are preemptible" in rules


def test_a_change_naming_a_flag_by_its_word_changes_the_flag_clause() -> None:
    first = "Use --workers=16, the m5 hosts have 16 vCPUs."
    later = "We moved to m7 hosts with 48 vCPUs, so raise workers to match."
    ledger = ledger_of_said(START, first, later)
    assert not any("--workers=16" in text for text in _live_texts(ledger))


def test_a_yes_naming_one_thing_offered_is_a_choice() -> None:
    offer = "Okay, rsnapshot for the VMs and borg for the photo library?"
    ledger = ledger_of_turns(
        ("user", START), ("assistant", offer), ("user", "yeah borg. keep 3 monthly archives.")
    )
    assert "yeah borg." in {f.text for f in ledger.live("decision")}
    ledger = ledger_of_turns(
        ("user", START), ("assistant", offer), ("user", "ok wait. keep 3 monthly archives.")
    )
    assert not ledger.live("decision")


def test_a_key_prefix_with_colons_is_one_identifier_a_rename_replaces() -> None:
    first = "we cache in redis hashes, the key prefix is cart:live:, with a 1 day TTL."
    later = (
        "we're renaming the keys, infra wants cart:v3:{tenant}: so dashboards can tell them apart"
    )
    ledger = ledger_of_said(START, first, later)
    identifiers = {f.text for f in ledger.live("identifier")}
    assert "cart:v3:{tenant}" in identifiers
    assert "cart:live" not in identifiers


def test_the_old_thing_named_far_from_a_value_does_not_recall_it() -> None:
    ledger = ledger_of_said(
        START, "ship the exports to s3://exports-eu-2 so ops can tell them from the old bucket"
    )
    assert "s3://exports-eu-2" in {f.text for f in ledger.live("identifier")}


def test_an_error_record_in_a_pasted_log_is_kept() -> None:
    record = "shelf-agent[311]: ERROR labeler: write failed: [Errno 5] Input/output error"
    message = (
        "log from the till:\n```\n2025-03-09T08:00:01Z shelf-agent[311]: printing label 42\n"
        f"2025-03-09T08:00:01Z {record}\n2025-03-09T08:00:02Z shelf-agent[311]: retry 1/3\n```\n"
        "It started after the 2.4.0 upgrade."
    )
    ledger = ledger_of_said(START, message)
    assert any(record in f.text for f in ledger.facts if f.live)


def test_a_decision_told_after_then_is_a_decision() -> None:
    said = "然后我们决定 tile size 就用默认的 512，overzoom 设 2。"
    ledger = ledger_of_said(START, said)
    assert said in {f.text for f in ledger.live("decision")}


def test_going_back_after_finding_fault_reverts_the_change_that_set_it() -> None:
    ledger = ledger_of_said(
        START,
        "quantize the draft model to int8, group size 128.",
        "switch quantization to int4, memory is tight",
        "log every run to the tracker, people keep mixing it up with the old one",
        "int4 is a disaster on recall, go back to what we had.",
    )
    rules = live_rules(ledger)
    assert "switch quantization to int4, memory is tight" not in rules
    assert not any("int4" in text for text in rules)
    assert any("int8" in text for text in rules)
    assert "log every run to the tracker, people keep mixing it up with the old one" in rules


def test_a_value_left_to_the_assistant_is_kept_as_it_set_it() -> None:
    ledger = ledger_of_turns(
        ("user", START),
        ("user", "use --threads=8 on the old build box"),
        ("assistant", "OK."),
        ("user", "the new box has 32 cores, so bump threads accordingly"),
        ("assistant", "Raised it: the job now runs with --threads=32."),
        ("user", "continue"),
    )
    identifiers = {f.text for f in ledger.live("identifier")}
    assert "--threads=32" in identifiers
    assert "--threads=8" not in identifiers


def test_an_assistant_setting_nobody_asked_to_change_is_not_a_fact() -> None:
    ledger = ledger_of_turns(
        ("user", START),
        ("user", "tidy up the readme"),
        ("assistant", "Done; I also set --threads=32 in the Makefile."),
    )
    assert "--threads=32" not in {f.text for f in ledger.live("identifier")}
