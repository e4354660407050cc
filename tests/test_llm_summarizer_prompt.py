"""The LLM summarizer's checkpoint prompt (tether's own wording) asks for what must survive.

Issue 9, item 6: every constraint and decision the user stated, verbatim, and the user's latest
stated next step — in the history, update and branch prompts, sent to the loopback server.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.servers import OpenAIServer
from tests.test_llm_summarizer import (
    SUMMARY_TEXT,
    Setup,
    golden_request,
    split_user_text,
    summarize,
)
from tether.builtin_plugins.memory.llm_summarizer.prompts import INSTRUCTIONS, SYSTEM_PROMPT

FIXTURE = Path(__file__).parent / "fixtures" / "llm_summarizer_prompts.json"


@pytest.fixture
def setup(openai_server: OpenAIServer, tmp_path: Path) -> Setup:
    home = tmp_path / "home"
    home.mkdir()
    return Setup(openai_server, home)


@pytest.mark.parametrize("kind", ["compaction", "branch"])
@pytest.mark.parametrize("update", [False, True])
def test_prompt_asks_for_constraints_verbatim_and_the_users_next_step(
    setup: Setup, kind: str, update: bool
) -> None:
    """Issue 9: the checkpoint prompts (tether's own, not pi's) ask for every user-stated
    constraint and decision word for word and for the user's latest stated next step."""
    setup.server.text(SUMMARY_TEXT)
    previous = "## Goal\nold goal" if update else None
    summarize(setup.pm, setup.request(kind=kind, previous_summary=previous))
    _, sent_previous, instructions = split_user_text(setup.user_text())
    assert (sent_previous is not None) == update
    flat = " ".join(instructions.split())
    assert "constraint, requirement, preference and decision the user stated" in flat
    assert "verbatim, in the user's own words" in flat and "never paraphrase" in flat
    assert "the next step the user stated most recently, in the user's words" in flat
    # issue 23: a changed value only in its latest form, in the user's words and language
    assert "carry only the latest value, quoted in the user's own words and language" in flat
    assert "never list the replaced value as current" in flat
    pi_kind = {"compaction": "summary", "branch": "branchSummary"}[kind]
    golden, _ = golden_request(pi_kind)
    _, _, golden_instructions = split_user_text(golden["messages"][0]["content"][0]["text"])
    assert "in the user's own words" not in golden_instructions  # tether's own addition


def test_prompts_assembled_from_prompts_md_are_the_pinned_bytes() -> None:
    """The prompts are put together from the blocks of ``prompts.md``: the system prompt and
    all six instructions stay byte for byte the texts pinned before that (same kinds, same
    order)."""
    pinned = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert SYSTEM_PROMPT == pinned["system"]
    assert list(INSTRUCTIONS.items()) == list(pinned["instructions"].items())
