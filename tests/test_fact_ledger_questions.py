"""What the fact ledger must not file as a rule: a question with a modal verb in it, a JSON
member quoted in a prompt. Both once became constraints, one more per turn, and the summary
gate carried every one of them forward: the summary grew at each compaction, so a session
without pruning compacted more often than pi's (bench/economy.py: 41 compactions to pi's 37)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.compaction_helpers import hooks_with, settings
from tests.gate_helpers import assistant, text, tool_turn, user
from tests.ledger_helpers import FactFree, write_turns
from tether.builtin_plugins.memory.fact_ledger import stored_ledger
from tether.builtin_plugins.memory.fact_ledger.cues import cues_for
from tether.builtin_plugins.memory.fact_ledger.extract import classify
from tether.core.memory.compaction import compact
from tether.core.session.session import Session

RULES = ["Never run migrations on Fridays.", "Use ruff, never black, for formatting."]


def test_a_question_is_not_a_rule_and_a_json_member_is_not_a_quoted_rule() -> None:
    cues = cues_for(None)
    assert classify("Turn 8: what should we look at next?", cues) == "request"
    assert classify("Should we ship it today?", cues) == "request"
    assert classify('Run this: {"command": "cat logs/test_7.log"}', cues) == "request"
    # what stays a rule: a modal in a statement, a quoted rule after a label
    assert classify("You should always pin the versions.", cues) == "constraint"
    assert classify('Answer like this: "see the docs first"', cues) == "constraint"


def test_a_question_that_asks_for_a_rule_is_the_rule() -> None:
    """A polite or tagged question states what it asks for; only one that asks (what, should
    we, 怎么…) is a request."""
    cues = cues_for(None)
    assert classify("Can we keep every page under 300 KB of JS?", cues) == "constraint"
    assert classify("Could we please never print the tokens? 🙏", cues) == "constraint"
    assert classify("No new build steps without asking me first, ok?", cues) == "constraint"
    assert classify("能不能别用 jQuery？", cues) == "constraint"
    assert classify("这个报错怎么修？", cues) == "request"
    assert classify("Q3: which port should the proxy use?", cues) == "request"


def _work_turn(session: Session, n: int) -> None:
    """One turn of bench/economy.py's script: a question, then a prompt quoting a tool
    call's JSON (the loopback model's directive)."""
    session.append_message(user(f"Turn {n}: what should we look at next?"))
    session.append_message(assistant([text("Let us continue.")]))
    command = f"cat logs/test_{n % 4}.log"  # a few files, read again and again
    call = f'@tool bash {{"command": "{command}"}}'
    session.append_message(user(f"Turn {n}: check this output.\n{call}\n@reply Looked at it."))
    log = "\n".join(f"step {i}: compiled unit {i * 37 % 1009} ok" for i in range(150))
    for message in tool_turn(f"c{n}", "bash", {"command": command}, log, False):
        session.append_message(message)
    session.append_message(assistant([text("Looked at it.")]))


def test_work_turns_add_no_constraints_and_the_summary_stays_flat(tmp_path: Path) -> None:
    file = tmp_path / "questions.jsonl"
    write_turns(file, ["Help me maintain the billing service.", *RULES], reply="Noted.")
    factfree = FactFree()
    sizes, entry = [], None
    for k in range(8):
        session = Session.open(file)
        for n in range(3):
            _work_turn(session, 3 * k + n)
        options = settings(keepRecentTokens=300, summarizer="factfree")
        outcome = compact(Session.open(file), hooks_with(("factfree", factfree)), options)
        assert outcome.status == "compacted", outcome.reason
        entry = outcome.entry
        sizes.append(len(entry["summary"]))
    assert entry is not None
    ledger = stored_ledger(entry["details"])
    assert ledger is not None
    rules = sorted(f.text for f in ledger.live() if f.kind in ("constraint", "decision"))
    assert rules == sorted(RULES)
    for rule in RULES:  # the gate still carries the real rules forward
        assert rule in entry["summary"]
    assert "what should we look at next" not in entry["summary"]
    assert sizes[-1] <= sizes[2] * 1.10, sizes


@pytest.mark.parametrize(
    "complaint",
    [
        "why is the config in YAML again??",
        "can we not reformat the whole file?",
        "could you stop adding print calls?",
        "怎么又把日志打到 stdout 了？？",
        "能不能别再改 lockfile 了？",
    ],
)
def test_a_question_that_complains_states_a_preference(complaint: str) -> None:
    """A complaint phrased as a question ("why … again??", "can we not …?", "怎么又…？") is
    a preference, filed under constraints, word for word — not a question that asks."""
    assert classify(complaint, cues_for(None)) == "constraint"


@pytest.mark.parametrize("asked", ["Can you run the migration again?", "How do I stop the worker?"])
def test_a_plain_question_with_those_words_still_asks(asked: str) -> None:
    assert classify(asked, cues_for(None)) == "request"
