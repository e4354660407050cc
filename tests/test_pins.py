"""Pinned facts in-process: which pins are in force on a branch, the ``## Pinned`` section of
every summary whoever wrote it, and the ``session.pin``/``unpin`` action of a real plugin."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tether
from tests.compaction_helpers import ScriptedSummarizer, add_round, hooks_with, settings
from tests.harness_helpers import open_harness, plugin_manager, use_home, write_home
from tether.builtin_plugins.memory.pins.format import (
    PINNED_HEADING,
    pinned_texts,
    pins_in_force,
    render_pinned,
    strip_pinned,
    with_pins,
)
from tether.builtin_plugins.memory.pins.pinning import current_pins, pin_entry, pin_text, unpin
from tether.core.base.errors import TetherError
from tether.core.context.file_tracking import format_file_lists
from tether.core.hooks.plugin_session import PluginSession
from tether.core.memory.compaction import compact
from tether.core.session.session import Session
from tether.hookspecs import hookimpl
from tether.hookspecs.events import CustomCompaction, SummarizeRequest

RULE = "Never push to main.\nAsk first."


def user(session: Session, text: str) -> str:
    return session.append_message({"role": "user", "content": text, "timestamp": 1})


def grown(tmp_path: Path) -> Session:
    session = Session.open(tmp_path / "s.jsonl", create=True, cwd=str(tmp_path))
    for n in range(3):
        add_round(session, n, words=40)
    return session


# -- which pins are in force -------------------------------------------------------------------


def test_pins_hold_on_their_branch_only_and_unpins_too(tmp_path: Path) -> None:
    session = Session.in_memory(str(tmp_path))
    root = user(session, "start")
    common = pin_text(session, "common fact")
    fork = session.leaf_id
    left = pin_text(session, "left fact")
    user(session, "more on the left")
    unpin(session, common.pin_id[:4])  # by prefix
    left_tip = session.leaf_id
    session.branch(fork)
    user(session, "right side")
    right_tip = session.leaf_id

    assert pinned_texts(session.get_branch(left_tip)) == ["left fact"]
    assert pinned_texts(session.get_branch(right_tip)) == ["common fact"]
    assert pinned_texts(session.get_branch(root)) == []
    assert [p.pin_id for p in current_pins(session)] == [common.pin_id]
    with pytest.raises(TetherError, match=f"no pin '{left.pin_id}' in force"):
        unpin(session, left.pin_id)  # pinned on the other branch


def test_pin_by_entry_id_and_the_errors_that_write_nothing(tmp_path: Path) -> None:
    session = Session.in_memory(str(tmp_path))
    first = user(session, "We target Python 3.9.")
    answer = session.append_message(
        {"role": "assistant", "content": [{"type": "text", "text": "Noted:"},
         {"type": "toolCall", "id": "c", "name": "ls", "arguments": {}},
         {"type": "text", "text": "3.9 it is."}], "stopReason": "toolUse", "timestamp": 2}
    )  # fmt: skip
    result = session.append_message(
        {"role": "toolResult", "toolCallId": "c", "toolName": "ls", "content": "a", "timestamp": 3}
    )
    pin = pin_entry(session, first)
    assert (pin.text, pin.entry_id) == ("We target Python 3.9.", first)
    assert pin_entry(session, answer).text == "Noted:\n3.9 it is."
    count = len(session)
    with pytest.raises(TetherError, match="no entry with id 'nope'"):
        pin_entry(session, "nope")
    with pytest.raises(TetherError, match=f"entry '{result}' has no text to pin.*toolResult"):
        pin_entry(session, result)
    with pytest.raises(TetherError, match="the text is empty"):
        pin_text(session, " \n")
    with pytest.raises(TetherError, match="no pin 'zzz' in force"):
        unpin(session, "zzz")
    assert len(session) == count


def test_an_ambiguous_pin_prefix_is_refused(tmp_path: Path) -> None:
    session = Session.in_memory(str(tmp_path))
    user(session, "x")
    for pin_id in ("ab12", "ab34"):
        session.append_custom_entry("tether.pin", {"pinId": pin_id, "text": pin_id})
    with pytest.raises(TetherError, match="'ab' is ambiguous: ab12, ab34"):
        unpin(session, "ab")
    assert unpin(session, "ab3").pin_id == "ab34"
    assert [p.pin_id for p in current_pins(session)] == ["ab12"]


# -- the ## Pinned section ---------------------------------------------------------------------


def test_with_pins_replaces_a_summarizers_own_section_before_the_file_lists() -> None:
    branch = [{"type": "custom", "customType": "tether.pin", "id": "p",
               "data": {"pinId": "p1", "text": RULE, "entryId": None}}]  # fmt: skip
    lists = format_file_lists(["a.py"], ["b.py"])
    summary = "## Goal\nship\n\n## Pinned\n- stale fact\n\n## Next Steps\n1. test" + lists
    out = with_pins(summary, branch)
    assert out == (
        "## Goal\nship\n\n## Next Steps\n1. test\n\n## Pinned\n- Never push to main.\nAsk first."
        + lists
    )
    assert with_pins(out, branch) == out  # applied again: the same, never duplicated
    assert with_pins(summary, []) == "## Goal\nship\n\n## Next Steps\n1. test" + lists


def test_a_summary_without_pins_or_pinned_section_is_left_byte_for_byte() -> None:
    summary = "## Goal\nx\n\n\n\n## Critical Context\n- y\n\n<read-files>\na\n</read-files>"
    assert with_pins(summary, [{"type": "message", "id": "m"}]) == summary


def test_a_pinned_text_that_looks_like_headings_is_removed_exactly() -> None:
    texts = ["Layout:\n## Goal\nis a heading in the pinned text", "second"]
    summary = "## Goal\nreal goal\n\n" + render_pinned(texts) + "\n\n## Next Steps\n1. go"
    assert strip_pinned(summary, known=[texts]) == "## Goal\nreal goal\n\n## Next Steps\n1. go"
    # a known list that is only the start of the section: the whole section goes, no orphans
    longer = "## Goal\nx\n\n## Pinned\n- a\n- b\n\n## Next Steps\n1. go"
    assert strip_pinned(longer, known=[["a"]]) == "## Goal\nx\n\n## Next Steps\n1. go"


# -- compactions: any summarizer, a plugin's own compaction ------------------------------------


def test_a_plugin_summarizer_and_a_plugin_compaction_both_get_the_pins(tmp_path: Path) -> None:
    session = grown(tmp_path)
    pin_text(session, RULE)
    add_round(session, 9, words=40)
    duplicate = {"compaction": "## Goal\nx\n\n## Pinned\n- " + RULE + "\n- old", "turn_prefix": "p"}
    hooks = hooks_with(("scripted", ScriptedSummarizer(texts=duplicate)))
    outcome = compact(session, hooks, settings(keepRecentTokens=200, reserveTokens=2000))
    summary = outcome.entry["summary"]
    assert summary.count(PINNED_HEADING) == 1 and summary.count(RULE) == 1
    assert "- old" not in summary
    assert summary.index(PINNED_HEADING) < summary.index("<read-files>")

    class OwnCompaction:
        @hookimpl
        def session_before_compact(self, event: Any) -> CustomCompaction:
            return CustomCompaction("my own summary", event.preparation.first_kept_entry_id, 1)

    add_round(session, 10, words=40)
    hooks = hooks_with(("own", OwnCompaction()))
    outcome = compact(session, hooks, settings(keepRecentTokens=200, reserveTokens=2000))
    assert outcome.entry["summary"] == "my own summary\n\n" + render_pinned([RULE])
    context = session.build_context().messages
    assert RULE in context[0]["summary"]  # what the model sees


def test_the_offline_summarizer_does_not_carry_the_pinned_section_elsewhere() -> None:
    from tether.builtin_plugins.memory.offline_summarizer import offline_summary

    previous = "## Goal\n- ship\n\n" + render_pinned(["Never use tabs."]) + "\n\n<read-files>\n"
    previous += "a\n</read-files>"
    request = SummarizeRequest(
        kind="compaction",
        messages=[{"role": "user", "content": "Continue.", "timestamp": 1}],
        previous_summary=previous,
        max_tokens=2000,
    )
    text = offline_summary(request).text
    assert "Never use tabs." not in text and "Pinned" not in text
    assert "ship" in text


def test_the_llm_update_prompt_says_to_leave_the_pinned_section_out() -> None:
    from tether.builtin_plugins.memory.llm_summarizer.prompts import INSTRUCTIONS, PINNED_NOTE

    assert "## Pinned" in PINNED_NOTE
    for kind in ("updateSummary", "updateBranchSummary"):
        assert PINNED_NOTE in INSTRUCTIONS[kind]


# -- the plugin action ----------------------------------------------------------------------------


class Rememberer:
    """A plugin: ``remember: TEXT`` pins TEXT, ``forget: ID`` unpins; both swallow the input."""

    def __init__(self) -> None:
        self.pinned: list[str] = []
        self.seen: list[list[dict[str, Any]]] = []

    @hookimpl
    def input(self, event: tether.InputEvent, session: tether.HookSession) -> None:
        verb, _, rest = event.text.partition(": ")
        if verb == "remember":
            self.pinned.append(session.pin(rest))
            event.handled = True
        elif verb == "forget":
            session.unpin(rest)
            event.handled = True
        self.seen.append(session.pins())


def test_a_plugin_pins_and_unpins_through_its_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    compaction = {"summarizer": "offline", "keepRecentTokens": 40, "reserveTokens": 2000}
    home = use_home(write_home(tmp_path / "home", settings={"compaction": compaction}), monkeypatch)
    plugin = Rememberer()
    harness = open_harness(plugin_manager(("rememberer", plugin)), tmp_path, home, "faux/faux-1")
    try:
        assert harness.prompt("remember: Deploy only on Fridays.").handled
        (pin_id,) = plugin.pinned
        for n in range(3):
            harness.prompt(f"step {n}: " + "filler " * 30)
        harness.compact()
        file = harness.session.file
        summary = harness.agent.state.messages[0]["summary"]
        assert summary.count("\n\n## Pinned\n- Deploy only on Fridays.") == 1
        harness.prompt("after the compaction")
        sent = harness.registry.apis["faux"].last_context.messages
        assert "Deploy only on Fridays." in str(sent[0])  # the model sees it
        harness.prompt(f"forget: {pin_id}")
        assert plugin.seen[-1] == []
        for n in range(3):
            harness.prompt(f"more {n}: " + "filler " * 30)
        harness.compact()
        assert "Deploy only on Fridays." not in harness.agent.state.messages[0]["summary"]
    finally:
        harness.close()
    assert plugin.seen[0][0]["pinId"] == pin_id and plugin.seen[0][0]["entryId"] is None
    entries = Session.open(file, readonly=True).entries()
    kinds = [e.get("customType") for e in entries if e["type"] == "custom"]
    assert kinds == ["tether.pin", "tether.unpin"]


def test_outside_an_agent_pins_are_read_and_the_actions_refused(tmp_path: Path) -> None:
    session = Session.in_memory(str(tmp_path))
    user(session, "x")
    pin = pin_text(session, "a fact")
    view = PluginSession.reading(session, hooks_with(), None, settings=settings())
    assert view.pins() == [pin.as_json()]
    for action, call in (("pin", lambda: view.pin("b")), ("unpin", lambda: view.unpin("a"))):
        with pytest.raises(tether.NoAgentError, match=rf"session\.{action}\(\) needs a running"):
            call()
    assert pins_in_force(session.get_branch()) == [pin]


# -- the ``pins`` hook: the kernel keeps no pins of its own --------------------------------------


def test_without_the_pins_plugin_summaries_are_stored_as_written(tmp_path: Path) -> None:
    session = grown(tmp_path)
    pin_text(session, RULE)
    add_round(session, 9, words=40)
    texts = {"compaction": "## Goal\nx", "turn_prefix": "p"}
    pm = tether.create_plugin_manager(
        plugins=(("scripted", ScriptedSummarizer(texts=texts)),), environ={}, disabled=("pins",)
    )
    hooks = tether.Hooks(pm)
    outcome = compact(session, hooks, settings(keepRecentTokens=200, reserveTokens=2000))
    assert PINNED_HEADING not in outcome.entry["summary"] and RULE not in outcome.entry["summary"]
    view = PluginSession.reading(session, hooks, None, settings=settings())
    assert view.pins() == []


class TeamNotes:
    """A plugin's own ``pins`` answer: one fixed note, in its own words."""

    def __init__(self) -> None:
        self.previous: list[str | None] = []

    def pins(self, session: Any) -> list[dict[str, Any]]:
        return [{"pinId": "team", "text": "Ship on Fridays.", "entryId": None, "holderId": ""}]

    def pin(self, session: Any, text: str) -> str:
        raise TetherError("pin it in the team notes")

    def unpin(self, session: Any, pin_id: str) -> str:
        raise TetherError("unpin it in the team notes")

    def previous_summary(self, text: str | None, branch: list[dict[str, Any]]) -> str | None:
        self.previous.append(text)
        return None if text is None else text.replace("\n\nTeam: Ship on Fridays.", "")

    def stored_summary(self, summary: str, branch: list[dict[str, Any]]) -> str:
        return summary + "\n\nTeam: Ship on Fridays."


def test_a_plugins_pins_answer_replaces_the_built_in_one(tmp_path: Path) -> None:
    session = grown(tmp_path)
    pin_text(session, RULE)  # the built-in's entry: not in force for this plugin
    add_round(session, 9, words=40)
    notes = TeamNotes()

    class Plugin:
        @hookimpl
        def pins(self) -> TeamNotes:
            return notes

    texts = {"compaction": "## Goal\nx", "turn_prefix": "p"}
    hooks = hooks_with(("team", Plugin()), ("scripted", ScriptedSummarizer(texts=texts)))
    outcome = compact(session, hooks, settings(keepRecentTokens=200, reserveTokens=2000))
    summary = outcome.entry["summary"]
    assert summary.endswith("\n\nTeam: Ship on Fridays.") and PINNED_HEADING not in summary
    add_round(session, 10, words=40)
    second = compact(session, hooks, settings(keepRecentTokens=200, reserveTokens=2000))
    assert notes.previous[-1] == summary  # the plugin decides what summarizers see
    assert second.entry["summary"].count("Team: Ship on Fridays.") == 1


def test_a_pins_answer_without_the_methods_names_the_plugin(tmp_path: Path) -> None:
    session = grown(tmp_path)

    class Broken:
        @hookimpl
        def pins(self) -> object:
            return object()

    hooks = hooks_with(("broken", Broken()))
    with pytest.raises(TetherError, match=r"broken.*pins.*lacks pins, pin, unpin"):
        compact(session, hooks, settings(keepRecentTokens=200, reserveTokens=2000))
    assert [e["type"] for e in session.entries()].count("compaction") == 0
