"""What the summary gate (the ``gate_summary`` hook) receives and answers.

A :class:`SummaryCheck` is one compaction's summary before it is written, with what it was made
from and two ways to get another one (:meth:`SummaryCheck.retry`, :meth:`SummaryCheck.fallback`);
a :class:`GateVerdict` is the summary to write and what the gate found, recorded in the
compaction entry's ``details.gate``. A :class:`SummaryPlan` (the ``plan_summary`` hook's answer)
says which summarizer requests one attempt takes and how their answers merge.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any, Literal

from tether.hookspecs.events import CompactionPreparation, Message, SummarizeRequest, Summary

Verdict = Literal["passed", "retried", "carried_forward", "fallback"]


@dataclass
class SummaryAttempt:
    """One summary of the whole compaction: ``text`` (without the file lists) and the
    summarizers' answers it was made of (one; two for a split turn). ``parts`` has the same
    answers by part — ``compaction`` (the history) and ``turn_prefix`` (a split turn's
    prefix) — when tether made the attempt; a part a retry did not ask again is the same
    answer as before."""

    text: str
    summaries: list[Summary]
    parts: dict[str, Summary] = field(default_factory=dict)

    @property
    def reply_problem(self) -> str | None:
        """Why an answer is not a real summary (a tool call, a cut reply…), or ``None``."""
        return next((s.reply_problem for s in self.summaries if s.reply_problem), None)


@dataclass
class SummaryPlan:
    """How one attempt at a compaction's summary is asked (the ``plan_summary`` hook's answer).

    ``requests``: the ``(part, request)`` pairs tether sends to the chosen summarizer — at most
    two, asked at once (the second in a worker thread). ``merge(parts)``: the
    :class:`SummaryAttempt` made of every part's answer by part name (those just asked and
    those a gate's retry kept).
    """

    requests: list[tuple[str, SummarizeRequest]]
    merge: Callable[[dict[str, Summary]], SummaryAttempt] = field(repr=False, compare=False)


@dataclass
class SummaryCheck:
    """A compaction's summary before it is written (see ``gate_summary``).

    ``attempt`` is the summarizer's answer; ``preparation`` what it summarized (the previous
    summary, the messages, the split turn's prefix); ``file_lists`` the ``<read-files>`` /
    ``<modified-files>`` text tether appends after the summary; ``previous_details`` the
    ``details`` of the compaction entry the previous summary comes from (``None`` without one);
    ``max_chars`` the summary's budget in characters (pi's history budget × 4); ``fact_cues``
    the cue tables plugins registered (``register_fact_cues``: language → table).
    """

    attempt: SummaryAttempt
    preparation: CompactionPreparation
    file_lists: str = ""
    read_files: list[str] = field(default_factory=list)
    modified_files: list[str] = field(default_factory=list)
    previous_details: dict[str, Any] | None = None
    custom_instructions: str | None = None
    max_chars: int = 0
    signal: Any = None
    # tether's: ``rerun(note, summarizer[, parts])``, see :meth:`retry` and :meth:`fallback`
    rerun: Callable[..., SummaryAttempt] | None = field(default=None, repr=False, compare=False)
    fact_cues: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The summary text the summarizer wrote (without the file lists)."""
        return self.attempt.text

    @property
    def messages(self) -> list[Message]:
        """Every message the summary replaces: the history, then a split turn's prefix."""
        prep = self.preparation
        return [*prep.messages_to_summarize, *prep.turn_prefix_messages]

    @property
    def aborted(self) -> bool:
        """The user aborted the operation: do not ask for another summary."""
        return bool(getattr(self.signal, "aborted", False))

    def retry(self, note: str, parts: Collection[str] | None = None) -> SummaryAttempt:
        """Summarize again with the same summarizer; ``note`` is added to the instructions
        (what was missing). ``parts`` (names of ``attempt.parts``) asks again only for those
        parts of a split turn and keeps the others' answers; ``None``: every part. Raises
        what the summarizer raises."""
        if self.rerun is None:
            raise RuntimeError("retry works only in a check made by tether")
        if parts is None:
            return self.rerun(note, None)
        return self.rerun(note, None, frozenset(parts))

    def fallback(
        self, summarizer: str = "offline", parts: Collection[str] | None = None
    ) -> SummaryAttempt:
        """Summarize again with another registered summarizer (default: ``offline``).
        ``parts`` (names of ``attempt.parts``) hands over only those parts of a split turn and
        keeps the others' latest answers; ``None``: every part."""
        if self.rerun is None:
            raise RuntimeError("fallback works only in a check made by tether")
        return self.rerun(None, summarizer, None if parts is None else frozenset(parts))


@dataclass
class GateVerdict:
    """The gate's answer: ``text`` is written (tether appends the file lists).

    ``verdict``: ``passed`` (the first answer as is), ``retried`` (the retry's answer),
    ``carried_forward`` (missing items added verbatim), ``fallback`` (another summarizer's
    answer). ``missing`` names what the first answer lacked; ``carried`` what was added
    verbatim; ``summaries`` the answers ``text`` comes from when not the first one; ``record``
    extra JSON for ``details.gate`` (the gate's memory for the next compaction).
    """

    text: str
    verdict: Verdict
    missing: list[str] = field(default_factory=list)
    carried: list[str] = field(default_factory=list)
    summaries: list[Summary] | None = None
    record: dict[str, Any] = field(default_factory=dict)

    def report(self) -> dict[str, Any]:
        """``details.gate`` of the compaction entry: verdict, missing, carried, record."""
        out: dict[str, Any] = {"verdict": self.verdict, "missing": list(self.missing)}
        if self.carried:
            out["carried"] = list(self.carried)
        out.update(self.record)
        return out


def gate_line(report: dict[str, Any]) -> str:
    """One line for people: ``summary gate: carried forward 2 items (constraint "…", …)``."""
    verdict = str(report.get("verdict", ""))
    missing = [str(m) for m in report.get("missing") or []]
    shown = "; ".join(missing[:3]) + (f"; +{len(missing) - 3} more" if len(missing) > 3 else "")
    what = {
        "passed": "passed",
        "retried": "retried once, the retry was complete",
        "carried_forward": f"carried forward {len(report.get('carried') or [])} missing item(s)",
        "fallback": "the offline summarizer took over",
    }.get(verdict, verdict)
    return f"summary gate: {what}" + (f" (missing: {shown})" if missing else "")


__all__ = ["GateVerdict", "SummaryAttempt", "SummaryCheck", "SummaryPlan", "Verdict", "gate_line"]
