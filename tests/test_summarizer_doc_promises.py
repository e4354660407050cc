"""What docs/plugins.md ("Writing a summarizer") promises a summarizer's author: what
``summarize_with`` raises, that a summary's model call is not retried, which ``details`` count
in ``details.cost``, and the summary of a one-turn session. In-process through
:mod:`tether.testing`.
"""

from __future__ import annotations

from typing import Any

import tether
from tether.providers import TransientError
from tether.testing import faux_session


def summarizers(**named: Any) -> Any:
    """A plugin object registering ``named`` summarizers."""

    class Plugin:
        @tether.hookimpl
        def register_summarizers(self, register: Any) -> None:
            for name, function in named.items():
                register(name, function)

    return Plugin()


BUSY = {"error": {"kind": "transient", "message": "503 busy", "status": 503}}
TWO_TURNS = ("Fix the parser.", "Now the tests.")


def compaction(
    summarize: Any, *, script: list[Any], gate: bool = True, turns: tuple[str, ...] = TWO_TURNS
) -> tuple[Any, int]:
    """``(outcome or the error raised, model calls the compaction made)``."""
    settings = {"compaction": {"summarizer": "mine", "keepRecentTokens": 1}}
    disabled = () if gate else ("summary_gate",)
    plugins = [("mine", summarizers(mine=summarize))]
    with faux_session(plugins=plugins, settings=settings, disabled=disabled) as t:
        for text in turns:
            t.prompt(text)
        before = len(t.requests)
        t.script(*script)
        try:
            outcome: Any = t.compact()
        except tether.TetherError as exc:
            outcome = exc
        return outcome, len(t.requests) - before


def chain(exc: BaseException | None) -> list[type]:
    found: list[type] = []
    while exc is not None:
        found.append(type(exc))
        exc = exc.__cause__
    return found


def test_summarize_with_raises_tether_errors_with_the_provider_error_as_cause() -> None:
    raised: list[BaseException] = []

    def mine(request: Any) -> tether.Summary:
        if request.kind != "compaction":  # a split turn's other part, on another thread
            return tether.Summary(text="## Goal\nFix the parser.", summarizer="mine")
        for name, changes in (("nope", {}), ("llm", {"bogus": 1}), ("llm", {})):
            try:
                request.summarize_with(name, **changes)
            except Exception as exc:  # noqa: BLE001 - what it raises is the subject
                raised.append(exc)
        return tether.Summary(text="## Goal\nFix the parser.", summarizer="mine")

    outcome, _calls = compaction(mine, script=[BUSY], gate=False)
    assert outcome.status == "compacted"
    unknown, bogus, failed = raised
    assert isinstance(unknown, tether.TetherError) and "registered summarizers" in str(unknown)
    assert "(from summarize_with)" in str(unknown)  # not a --summarizer the user never gave
    assert isinstance(bogus, TypeError)
    assert isinstance(failed, tether.TetherError) and "llm_summarizer" in str(failed)
    assert isinstance(failed.__cause__, TransientError)


def test_a_summarys_transient_error_is_not_retried() -> None:
    def mine(request: Any) -> tether.Summary:
        return request.summarize_with("llm")

    outcome, calls = compaction(mine, script=[BUSY, BUSY, "## Goal\nx", "## Goal\ny"])
    assert isinstance(outcome, tether.TetherError)
    assert TransientError in chain(outcome)
    assert calls == 2  # a split turn's two parts, each asked once


def test_cost_counts_the_requests_of_the_summary_returned() -> None:
    step = {"text": "## Goal\nFix the parser.", "usage": {"input": 100, "output": 10}}

    def handed_back(request: Any) -> tether.Summary:
        return request.summarize_with("llm")

    def rewritten(request: Any) -> tether.Summary:
        inner = request.summarize_with("llm")
        return tether.Summary(text=inner.text, summarizer="mine")  # its details dropped

    kept, calls = compaction(handed_back, script=[step] * 6)
    assert calls >= 2
    assert kept.entry["details"]["cost"]["usage"] == {"input": 100 * calls, "output": 10 * calls}
    assert kept.entry["details"]["cost"]["model"] == "faux/faux-1"
    dropped, calls = compaction(rewritten, script=[step] * 6)
    assert calls >= 2
    assert dropped.entry["details"]["cost"]["usage"] == {"input": 0, "output": 0}
    ungated, _calls = compaction(handed_back, script=[step] * 6, gate=False)
    assert "cost" not in ungated.entry["details"]


def test_a_one_turn_session_is_summarized_as_no_prior_history_and_the_turn() -> None:
    def mine(request: Any) -> tether.Summary:
        return tether.Summary(text=f"## Goal\n{request.kind}", summarizer="mine")

    outcome, _calls = compaction(mine, script=[], gate=False, turns=("Fix the parser.",))
    summary = outcome.entry["summary"]
    assert summary.startswith("No prior history.\n\n---\n\n**Turn Context (split turn):**")
    assert "## Goal\nturn_prefix" in summary


def test_a_split_turn_asks_both_parts() -> None:
    kinds: list[str] = []

    def mine(request: Any) -> tether.Summary:
        kinds.append(request.kind)
        return tether.Summary(text="## Goal\nFix the parser.", summarizer="mine")

    compaction(mine, script=[], gate=False)
    assert sorted(kinds) == ["compaction", "turn_prefix"]
