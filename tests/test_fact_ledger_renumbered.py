"""One name with another number (issue 23): "LOD2" → "LOD3" with a change cue or as a
decision replaces the earlier rule though the two sentences share no other word; the rule's
other clauses stay; without a cue two numberings are two things."""

from __future__ import annotations

from tests.ledger_helpers import ledger_of_said, live_rules
from tether.builtin_plugins.memory.fact_ledger.renumbered import renumbered

START = "Set up the asset pipeline."


def test_a_change_to_another_number_of_one_name_retires_the_old_rule() -> None:
    first = "Keep the meshes at LOD2 for previews."
    later = "On second thought, LOD3 please, the artists complained."
    ledger = ledger_of_said(START, first, later)
    assert first not in live_rules(ledger)
    assert later in live_rules(ledger)


def test_a_decision_renumbers_one_clause_and_keeps_the_others() -> None:
    first = "Encode with VP8, bitrate 8 Mbps, two passes"
    ledger = ledger_of_said(START, first, "We decided on VP9 after the size test.")
    rules = live_rules(ledger)
    assert first not in rules
    assert {"bitrate 8 Mbps", "two passes"} <= rules


def test_two_numberings_said_without_a_cue_both_stay() -> None:
    ledger = ledger_of_said(START, "The intro goes in ch2.", "The appendix goes in ch3.")
    assert {"The intro goes in ch2.", "The appendix goes in ch3."} <= live_rules(ledger)


def test_the_old_number_said_again_compares_and_changes_nothing() -> None:
    assert renumbered("switch to SF9", "spreading factor SF12")
    assert not renumbered("SF9 beats SF12 on airtime", "spreading factor SF12")
    assert not renumbered("use x86 builds", "use arm64 builds")


def test_a_path_or_host_said_now_with_another_number_replaces_the_rule() -> None:
    """A structured value whose parts differ only in their numbers is one thing renumbered:
    said as what holds now, it replaces the rule, though the old bare number ("r3") is
    named beside it and the two sentences share no other word."""
    first = "Training reads the shards under /mnt/corpus/r3."
    later = "heads up — it's /mnt/corpus/r4 now, r3 had duplicated documents"
    ledger = ledger_of_said(START, first, later)
    assert first not in live_rules(ledger)
    assert later in live_rules(ledger)
    assert renumbered("the replica is db-07.lan now", "queries go to db-03.lan")
    assert not renumbered("pin v2.4.1", "pin v1.9.0")  # bare versions: no name to share


def test_two_paths_renumbered_without_a_cue_both_stay() -> None:
    first, later = "Fold one lives in /srv/folds/f1.", "Fold two lives in /srv/folds/f2."
    assert {first, later} <= live_rules(ledger_of_said(START, first, later))


def test_a_renumbered_thing_said_beside_or_as_another_part_is_no_change() -> None:
    """ "now" with another part ("the standby") or an added thing ("another … too") names a
    second thing; the first stays."""
    first = "The primary store is kv-01.lan."
    for later in (
        "Reports now read from the replica at kv-02.lan.",
        "There is now another store at kv-02.lan for the batch jobs too.",
    ):
        assert first in live_rules(ledger_of_said(START, first, later)), later


def test_the_old_path_quoted_on_its_own_goes_with_its_rule() -> None:
    """A renumbered path retires the identifier that quotes the old one, so it is never
    listed as current beside the new one."""
    first = "hi. goal: nightly rollups of the events into parquet under /srv/rollups/v1"
    ledger = ledger_of_said(first, "heads up, the rollups moved — write to /srv/rollups/v2 now")
    live = {f.text for f in ledger.live("identifier")}
    assert "/srv/rollups/v2" in live
    assert "/srv/rollups/v1" not in live
