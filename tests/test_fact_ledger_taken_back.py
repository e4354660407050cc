"""Values taken back in ways an earlier ledger missed: a flag only a failed call passed,
dropped later; "drop that" after the sentence naming it; a flag wanted and
dropped in one breath; "stop writing to <path>"; a choice found wanting and replaced in the
same message ("gzip is too slow, so use zstd"); a number found wanting beside a new one of
another spelling ("64 is too coarse, make chunks 32m")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.gate_helpers import assistant, text, tool_turn, user
from tests.ledger_helpers import compacted, ledger_of, ledger_of_said, ledger_of_turns, live_rules

GOAL = "Set up the nightly export of the billing tables."
TRACKS = ["offline", "factfree"]


def summaries(folder: Path, messages: list[dict[str, Any]], track: str) -> list[str]:
    """The summaries of two compactions of ``messages`` on ``track``."""
    return [e["summary"] for e in compacted(folder, messages, track, k=2)]


def revoked(ledger: Any, name: str) -> bool:
    return any(f.text == name and f.note == "revoked" and not f.live for f in ledger.facts)


# -- a flag first passed by a failed call ----------------------------------------------------------

FAILED = [
    user(GOAL),
    assistant([text("Starting.")]),
    *tool_turn("c1", "bash", {"command": "exporter run -max-conns=4"}, "fatal: schema drift", True),
    user("the pool got bigger, you can drop -max-conns=4 now, not needed anymore"),
    assistant([text("Dropped it.")]),
]


def test_a_flag_only_a_failed_call_passed_is_revoked_when_dropped() -> None:
    assert revoked(ledger_of(FAILED), "-max-conns=4")


@pytest.mark.parametrize("track", TRACKS)
def test_the_failed_call_that_passed_a_dropped_flag_says_it_is_revoked(
    tmp_path: Path, track: str
) -> None:
    for summary in summaries(tmp_path, FAILED, track):
        assert "fatal: schema drift" in summary
        quoting = [line for line in summary.splitlines() if "-max-conns=4" in line]
        assert all("-max-conns=4 revoked" in line for line in quoting), quoting
    if track == "offline":  # the offline summary names the call; the gate only its error
        assert "`exporter run -max-conns=4` failed" in summary


# -- "drop that" after the sentence naming it --------------------------------------------------


def test_drop_that_takes_back_the_flag_of_the_sentence_before() -> None:
    said = (
        "I had been passing --no-dedupe while we chased the double rows. "
        "drop that, rows must be deduplicated again."
    )
    ledger = ledger_of(
        [
            user(GOAL),
            *tool_turn("c1", "bash", {"command": "exporter run --no-dedupe"}, "fatal: x", True),
            user(said),
        ]
    )
    assert revoked(ledger, "--no-dedupe")
    rules = live_rules(ledger)
    assert not [r for r in rules if "--no-dedupe" in r and "drop that" not in r], rules


def test_a_flag_said_first_then_a_thing_named_and_dropped_is_kept() -> None:
    said = "Also, the debug banner, remove it, it's noisy and clutters the CI log output."
    ledger = ledger_of_said(GOAL, "Build with --release.", said)
    assert not revoked(ledger, "--release")
    assert "Build with --release." in live_rules(ledger)


def test_a_flag_kept_beside_a_dropped_one_is_not_revoked() -> None:
    ledger = ledger_of_said(GOAL, "Add a --plot flag; drop the --csv idea, --plot covers it")
    assert not revoked(ledger, "--plot")


def test_a_long_sentence_opening_with_drop_that_points_nowhere_without_a_flag_before() -> None:
    said = "Keep the CSV header row. drop that, the loader reads the schema file instead."
    ledger = ledger_of_said(GOAL, said)
    assert not [f for f in ledger.facts if f.note == "revoked"]


# -- a flag wanted and dropped in one breath ---------------------------------------------------


WANTED = (
    "I thought we'd want a --dry-run switch on the CLI but drop the --dry-run switch, staging is "
    "enough"
)


def test_a_flag_wanted_then_dropped_in_one_sentence_is_revoked() -> None:
    assert revoked(ledger_of_said(GOAL, WANTED), "--dry-run")


@pytest.mark.parametrize("track", TRACKS)
def test_a_flag_wanted_then_dropped_is_told_as_revoked(tmp_path: Path, track: str) -> None:
    messages = [user(GOAL), assistant([text("ok")]), user(WANTED), assistant([text("ok")])]
    for summary in summaries(tmp_path, messages, track):
        lines = [line for line in summary.splitlines() if "--dry-run" in line]
        assert lines and all("--dry-run revoked" in line for line in lines), lines


def test_a_flag_dropped_without_being_wanted_first_is_no_revocation() -> None:
    ledger = ledger_of_said(GOAL, "drop the --verbose output from the cron mail, use --quiet")
    assert not revoked(ledger, "--verbose")


# -- stop writing to a path -------------------------------------------------------------------


def test_stop_writing_to_a_path_retires_that_path() -> None:
    ledger = ledger_of_said(
        GOAL,
        "The export log goes to /srv/billing/export.log for now.",
        "the box has no disk to spare, so stop writing to /srv/billing/export.log, send the "
        "log to journald",
    )
    assert "/srv/billing/export.log" not in {f.text for f in ledger.live("identifier")}
    assert not [r for r in live_rules(ledger) if r.startswith("The export log")]


def test_a_path_said_first_after_stop_writing_to_is_no_identifier() -> None:
    ledger = ledger_of_said(GOAL, "stop writing to /tmp/scratch.csv and keep it in memory")
    assert "/tmp/scratch.csv" not in {f.text for f in ledger.live("identifier")}


# -- a choice found wanting and replaced in the same message ----------------------------------

COMPRESS = "pipe each dump through bzip2, the files end in .csv.bz2"


def test_a_choice_found_wanting_and_replaced_retires_the_rule() -> None:
    later = (
        "Also bzip2 is way too slow on the 80 GB table, ops said anything works if the "
        "suffix is clear, so use .csv.zst with zstd -T0."
    )
    rules = live_rules(ledger_of_said(GOAL, COMPRESS, later))
    assert COMPRESS not in rules
    assert later in rules


def test_in_chinese_too() -> None:
    rules = live_rules(
        ledger_of_said("搭一个日志归档服务。", "归档用 bzip2 压缩。", "bzip2 太慢了，改用 zstd -T0")
    )
    assert "归档用 bzip2 压缩。" not in rules


def test_a_fault_without_a_pick_or_on_a_prohibition_changes_nothing() -> None:
    rules = live_rules(ledger_of_said(GOAL, COMPRESS, "bzip2 is too slow but we live with it"))
    assert COMPRESS in rules
    never = "never upload the dumps to the shared bucket"
    rules = live_rules(
        ledger_of_said(GOAL, never, "the shared bucket is too slow anyway, so use the NAS")
    )
    assert never in rules


def test_a_pick_of_what_the_rule_already_names_changes_nothing() -> None:
    later = "bzip2 is too slow with one thread, so use bzip2 through lbzip2 wrappers"
    assert COMPRESS in live_rules(ledger_of_said(GOAL, COMPRESS, later))


# -- a number found wanting beside a new one spelled another way ------------------------------


def test_a_faulted_number_and_a_new_one_in_another_spelling_change_the_rule() -> None:
    rule = "tile size is 128 pixels for now, keep that"
    later = "hmm 128 is too coarse, the seams show on the coastlines. make tiles 64px"
    rules = live_rules(ledger_of_said("Build the map renderer.", rule, later))
    assert rule not in rules
    assert "make tiles 64px" in " ".join(rules)


def test_a_blocked_port_replaced_by_another_changes_the_rule() -> None:
    rule = "- SyslogPort 6514"
    later = "the firewall team says 6514 is blocked between the zones. use 1514/tcp instead."
    rules = live_rules(ledger_of_said("Ship the logs to the collector.", rule, later))
    assert rule not in rules


# -- a change the user only asked about, settled by the next decision -------------------------

ASKED = "the registry rejects that tag, too long. maybe tag with the short sha instead?"
CAVEAT = "I can, but two builds of one commit would then share a tag."
DECIDED = "ok fair, go with the pipeline id for the tag then, $CI_PIPELINE_ID."


def test_a_change_question_is_settled_by_the_next_decision() -> None:
    ledger = ledger_of_turns(
        ("user", GOAL), ("assistant", "ok"), ("user", ASKED), ("assistant", CAVEAT),
        ("user", DECIDED),
    )  # fmt: skip
    rules = live_rules(ledger)
    assert "maybe tag with the short sha instead?" not in rules
    assert DECIDED in rules


def test_a_decision_on_another_subject_settles_no_question() -> None:
    ledger = ledger_of_turns(
        ("user", GOAL), ("assistant", "ok"), ("user", "Use Celery for tasks."),
        ("assistant", "ok"), ("user", "should we switch to RQ instead?"),
        ("assistant", "RQ is simpler."), ("user", "yes. We'll use cron for scheduling."),
    )  # fmt: skip
    assert "should we switch to RQ instead?" in live_rules(ledger)


def test_a_change_question_stays_when_no_decision_follows_at_once() -> None:
    ledger = ledger_of_turns(
        ("user", GOAL), ("assistant", "ok"), ("user", ASKED), ("assistant", CAVEAT),
        ("user", "let me check with the release team first."), ("assistant", "Sure."),
        ("user", DECIDED),
    )  # fmt: skip
    assert "maybe tag with the short sha instead?" in live_rules(ledger)


# -- a cued change naming a rule's number changes that rule, not a wordier look-alike ---------


def test_a_cued_change_naming_the_old_number_changes_the_rule_holding_it() -> None:
    goal = (
        "We're leaving Jira for Linear. Target is Linear with SSO. I need an importer that "
        "pulls issues via the Jira REST API and creates them in Linear."
    )
    ledger = ledger_of_said(
        goal,
        "linear team: PLAT, workspace acme. Batch size 50 issues per request.",
        "ugh, actually, the Jira API chokes at 50 — drop batches to 20.",
    )
    rules = live_rules(ledger)
    assert "Batch size 50 issues per request." not in rules
    assert (
        "I need an importer that pulls issues via the Jira REST API and creates them in Linear."
        in rules
    )


def test_a_path_only_the_assistant_named_leaves_the_paths_line_once_stopped(
    tmp_path: Path,
) -> None:
    messages = [
        user(GOAL),
        assistant([text("The exporter now logs to /srv/billing/export.log.")]),
        user("journald collects stdout, so stop writing to /srv/billing/export.log, log to stdout"),
        assistant([text("Done.")]),
    ]
    for summary in summaries(tmp_path, messages, "offline"):
        paths = [line for line in summary.splitlines() if line.startswith("- Paths: ")]
        assert not [line for line in paths if "/srv/billing/export.log" in line], paths


# -- an error quoting a value changed since carries the change ---------------------------------


@pytest.mark.parametrize("track", TRACKS)
def test_an_error_quoting_an_old_path_says_what_it_changed_to(tmp_path: Path, track: str) -> None:
    messages = [
        user("We need monthly statements rendered as PDFs. Files go to /srv/stmts/out please."),
        assistant([text("Rendering.")]),
        *tool_turn(
            "c1",
            "bash",
            {"command": "python render.py"},
            "OSError: [Errno 28] No space left on device: '/srv/stmts/out/2024-05.pdf'",
            True,
        ),
        user(
            "/srv is the tiny root volume. write to /mnt/stmt-archive/out instead of /srv/stmts/out"
        ),
        assistant([text("Moved.")]),
    ]
    for summary in summaries(tmp_path, messages, track):
        assert "No space left on device" in summary
        quoting = [line for line in summary.splitlines() if "/srv/stmts/out/2024-05.pdf" in line]
        assert quoting, summary
        assert all("changed to" in line for line in quoting), quoting
