"""Value shapes a key takes (issue 23): a command-line flag ("make the default -Os" after
"default opt level -O2 …"; flags of other keys stay) and a version with a letter suffix
("2022.3.21f1", "3.13.0rc2"), whoever says "we're" or "btw" around it."""

from __future__ import annotations

from tests.ledger_helpers import ledger_of_said, live_rules
from tether.builtin_plugins.memory.fact_ledger.cues import default_cues
from tether.builtin_plugins.memory.fact_ledger.keyshape import reshaped

START = "Set up the build for the firmware image."


def test_a_flag_given_to_the_same_key_replaces_the_old_one() -> None:
    first = "default link mode --gc-sections for the release image please"
    later = "Let's make the default --icf=all, keep --lto available as an opt-in."
    assert reshaped(later, first, default_cues()) == [("--gc-sections", "--icf=all")]
    ledger = ledger_of_said(START, first, later)
    assert first not in live_rules(ledger)
    assert later in live_rules(ledger)


def test_flags_of_different_keys_both_stay() -> None:
    first = "run the linter with --strict on CI"
    later = "the formatter gets --line-length=100"
    assert reshaped(later, first, default_cues()) == []
    assert {first, later} <= live_rules(ledger_of_said(START, first, later))


def test_a_version_with_a_suffix_replaces_the_one_it_updates() -> None:
    first = "The engine is Godot 4.2.1rc3 for now."
    later = "we're moving the engine to 4.3.0rc1 btw, it fixes the shader cache."
    assert reshaped(later, first, default_cues()) == [("4.2.1rc3", "4.3.0rc1")]
    ledger = ledger_of_said(START, first, later)
    assert first not in live_rules(ledger)


def test_a_flag_added_beside_another_replaces_nothing() -> None:
    for first, later in (
        ("link with -Wl,--gc-sections for release", "also link with -g so we keep symbols"),
        ("run vitest with --bail", "run vitest with --reporter=dot as well"),
        ("run ruff with --fix", "run ruff with --unsafe-fixes for the scripts folder"),
    ):
        assert first in live_rules(ledger_of_said(START, first, later)), later
