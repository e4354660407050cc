"""Changes said by dropping a name, renaming a quoted one, or naming the topic first (issue 23).

Each case is a way users change a value that the ledger once read as a new, separate rule, so
the old value stayed listed as current; each has a neighbour that must stay as it is."""

from __future__ import annotations

from tests.ledger_helpers import ledger_of_said, live_rules
from tether.builtin_plugins.memory.fact_ledger.recall import kept_identifiers

START = "We're writing a plugin for the level editor."


def _identifiers(ledger) -> set[str]:  # noqa: ANN001 - a Ledger
    return {f.text for f in ledger.live("identifier")}


def test_a_name_dropped_for_another_retires_the_clause_naming_it() -> None:
    ledger = ledger_of_said(
        START,
        "bevy 0.12, crate name is `tilemill`",
        "let's scrap bevy and go with macroquad, the compile times are killing me",
    )
    rules = live_rules(ledger)
    assert not any("bevy 0.12" in rule for rule in rules)
    assert any("crate name is `tilemill`" in rule for rule in rules)  # the other clause stays
    ledger = ledger_of_said(START, "Queue jobs with celery.", "drop celery, use rq")
    assert "Queue jobs with celery." not in live_rules(ledger)


def test_dropping_a_thing_without_its_bare_name_leaves_rules_alone() -> None:
    ledger = ledger_of_said(
        START, "Never leave debug prints in commits.", "drop the prints and use logging"
    )
    assert "Never leave debug prints in commits." in live_rules(ledger)
    ledger = ledger_of_said(START, "Queue jobs with celery.", "don't drop celery, use rq for mail")
    assert "Queue jobs with celery." in live_rules(ledger)


def test_a_rename_to_a_plain_word_replaces_the_quoted_old_name() -> None:
    ledger = ledger_of_said(
        START,
        "bevy 0.12, crate name is `tilemill`",
        "also rename crate name to tilesmith, tilemill is taken on crates.io",
    )
    assert "tilemill" not in _identifiers(ledger)
    assert not any("`tilemill`" in rule for rule in live_rules(ledger))
    assert any("bevy 0.12" in rule for rule in live_rules(ledger))
    rename = "also rename crate name to tilesmith, tilemill is taken on crates.io"
    assert rename in {f.text for f in ledger.live("constraint")}  # the name now: no request


def test_a_rename_leaves_unquoted_words_near_the_key_alone() -> None:
    ledger = ledger_of_said(
        START, "The export button says Save as.", "rename the export button to download"
    )
    assert "The export button says Save as." in live_rules(ledger)


def test_a_count_of_the_same_thing_said_shorter_changes_it() -> None:
    ledger = ledger_of_said(
        START,
        "Run 4 parallel bake jobs at most, the build box has little RAM.",
        "we got a bigger box, so you can go up to 12 parallel bakes now",
    )
    assert not any("4 parallel bake jobs" in rule for rule in live_rules(ledger))


def test_counts_of_different_things_stay_apart() -> None:
    ledger = ledger_of_said(START, "Give each node 8 GPU slots.", "Reserve 2 GPUs for the tests.")
    assert "Give each node 8 GPU slots." in live_rules(ledger)


def test_a_value_after_a_clause_naming_its_topic_changes_that_topic() -> None:
    ledger = ledger_of_said(
        START,
        "sprites 24x24 please, keep it pixel-art style",
        "nvm on the sprite size, the designer picked 48x48 so do that",
    )
    rules = live_rules(ledger)
    assert not any("24x24" in rule for rule in rules)
    assert "keep it pixel-art style" in rules  # the rest of the old rule holds


def test_a_lead_clause_without_a_topic_word_gives_no_subject() -> None:
    ledger = ledger_of_said(
        START, "sprites 24x24 please.", "the sprite sheet looks great, the icons go 48x48"
    )
    assert "sprites 24x24 please." in live_rules(ledger)


def test_an_old_bucket_of_the_goal_is_not_listed_once_a_path_ending_alike_replaces_it() -> None:
    ledger = ledger_of_said(
        "Hey! So we're moving the nightly tile renders to the new farm. Land the raw renders"
        " in gs://old-tiles/renders/ first, then sync from there.",
        "scratch that bucket, everything goes to gs://art-lake/final_renders/ from today.",
    )
    listed = {f.text for f in kept_identifiers(ledger, record=False)}
    assert "gs://old-tiles/renders/" not in listed


def test_a_job_script_with_its_own_extension_is_an_identifier() -> None:
    ledger = ledger_of_said(
        START, "put the module loads into submit_bake.slurm, next to the Makefile."
    )
    assert "submit_bake.slurm" in _identifiers(ledger)


def test_a_take_back_denied_takes_nothing_back() -> None:
    ledger = ledger_of_said(
        START, "Add a line to NEWS.md for every merged PR.", "Don't forget the NEWS.md line."
    )
    assert "Add a line to NEWS.md for every merged PR." in {f.text for f in ledger.facts if f.live}
    ledger = ledger_of_said(START, "Cache tiles in Redis.", "we don't need Redis anymore")
    assert "Cache tiles in Redis." not in live_rules(ledger)


def test_a_take_back_of_a_things_noun_phrase_names_the_rule_on_the_thing() -> None:
    # "the vtk files", "the gstreamer pipeline": the phrase's noun is how the user calls the
    # rule's thing; a rule on another thing of one name ("billing schema" for "the billing
    # report") is retired too, as at base: telling the two apart broke the common case.
    ledger = ledger_of_said(
        START, "stream the preview over gstreamer udp.", "drop the gstreamer pipeline, use webrtc"
    )
    assert "stream the preview over gstreamer udp." not in live_rules(ledger)
    ledger = ledger_of_said(
        START, "Export maps as JSON.", "no more pretty json output, binary only"
    )
    assert "Export maps as JSON." not in live_rules(ledger)


def test_a_new_value_lifts_no_ban_on_another() -> None:
    ledger = ledger_of_said(
        "我们在做关卡编辑器插件。", "界面不要引入 Qt。", "界面现在是 Dear ImGui 1.90。"
    )
    assert "界面不要引入 Qt。" in live_rules(ledger)
