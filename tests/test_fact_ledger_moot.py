"""An open error about the tool a replaced rule chose is moot once the user moves to another
one: no longer blocking, and not shown as an error seen."""

from __future__ import annotations

from tests.gate_helpers import assistant, text, tool_turn, user
from tests.ledger_helpers import ledger_of
from tether.builtin_plugins.memory.offline_summarizer.checkpoint import build_checkpoint
from tether.builtin_plugins.memory.offline_summarizer.facts import read_facts
from tether.builtin_plugins.memory.offline_summarizer.sections import render

FAILURE = "FileNotFoundError: [Errno 2] No such file or directory: 'pandoc'"


def _session(change: list[dict]) -> list[dict]:
    return [
        user("Generate the handbook as EPUB."),
        assistant([text("OK.")]),
        user("use Pandoc for the conversion, the styles live in styles/epub.css"),
        assistant([text("Converting.")]),
        *tool_turn("c1", "bash", {"command": "python build_book.py"}, FAILURE, True),
        *change,
    ]


PICKED = [
    assistant(
        [
            text(
                "Pandoc is missing from the build image. Two ways out: (1) ebooklib, pure "
                "Python; (2) calibre's ebook-convert, a much bigger image. Which one?"
            )
        ]
    ),
    user("the first one"),
]
SWITCHED = [user("one less system package: switch to ebooklib instead of Pandoc")]


def test_an_error_about_the_tool_a_picked_option_replaced_is_moot() -> None:
    messages = _session(PICKED)
    ledger = ledger_of(messages)
    assert not ledger.live("error")
    summary = render(build_checkpoint(read_facts(messages), ledger), "compaction", None)
    assert FAILURE not in summary
    assert "ebooklib, pure Python" in summary


def test_an_error_about_a_tool_switched_away_from_is_moot() -> None:
    assert not ledger_of(_session(SWITCHED)).live("error")


def test_an_error_naming_a_tool_the_new_rule_keeps_stays_open() -> None:
    kept = [user("keep Pandoc but convert with the --standalone flag instead of the default")]
    assert [f.text for f in ledger_of(_session(kept)).live("error")] == [FAILURE]


def test_an_error_about_another_tool_stays_open() -> None:
    other = "ModuleNotFoundError: No module named 'yaml'"
    messages = [
        *_session(PICKED)[:4],
        *tool_turn("c1", "bash", {"command": "python build_book.py"}, other, True),
        *PICKED,
    ]
    assert [f.text for f in ledger_of(messages).live("error")] == [other]


def test_an_adverb_of_the_replaced_rule_is_no_name_the_error_shares() -> None:
    """A rule "the broker is already running and the queue is called jobs-main" names no
    tool called "already": an error that says "already exists" is not made moot by its
    change."""
    failure = "ERROR: queue jobs-main-dlq already exists and cannot be re-declared"
    messages = [
        user(
            "Host is worker-3, region eu. The broker is already running (v3.12) and the "
            "queue is called jobs-main."
        ),
        assistant([text("OK.")]),
        *tool_turn("c1", "bash", {"command": "python declare.py"}, failure, True),
        user("on the test box use the queue jobs-test instead, only prod keeps the real one"),
    ]
    assert [f.text for f in ledger_of(messages).live("error")] == [failure]
