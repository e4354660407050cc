"""The summary gate's call site: a compaction's summary is checked before it is written.

:func:`gate_summary` builds the :class:`~tether.hookspecs.gate.SummaryCheck` (with ``retry`` and
``fallback`` that summarize the same preparation again) and asks the ``gate_summary`` hook. The
kernel decides nothing about what a good summary is — the gate plugin does (built-in:
``summary_gate``). With no gate, a summary whose answer is not a real text reply (a tool call,
a reply cut at the output limit, an empty text) still fails the compaction: it is never
written.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from tether.core.base.errors import TetherError
from tether.core.context.file_tracking import file_lists, format_file_lists
from tether.hookspecs.events import CompactionPreparation, Entry, SummarizeRequest, Summary
from tether.hookspecs.gate import SummaryAttempt, SummaryCheck, gate_line

#: ``summarize(request, note, keep)``: an attempt at the whole summary; ``note`` goes to every
#: part asked, the parts in ``keep`` are reused as they are.
Summarize = Callable[[SummarizeRequest, "str | None", "dict[str, Summary] | None"], SummaryAttempt]


def previous_details(path: list[Entry]) -> dict[str, Any] | None:
    """``details`` of the newest compaction entry on ``path`` (where the previous summary is)."""
    for entry in reversed(path):
        if entry.get("type") == "compaction":
            details = entry.get("details")
            return details if isinstance(details, dict) else None
    return None


def gated_summary(
    hooks: Any,
    session: Any,
    path: list[Entry],
    preparation: CompactionPreparation,
    base: SummarizeRequest,
    custom_instructions: str | None,
    summarize: Summarize,
    *,
    max_chars: int,
    say: Callable[[str], None],
    failure: str,
) -> tuple[str, list[Summary], dict[str, Any] | None, list[Summary]]:
    """Summarize ``preparation`` (``summarize(request, note, keep)``), let the gate check
    the answer; return the text to write (without file lists), the answers it comes from,
    the gate's report (``details.gate``; ``None``: no gate answered) and every answer asked
    (retries and replaced ones too). A retry or a fallback asks again only for the parts the
    gate names (``SummaryCheck.retry(note, parts)``, ``fallback(name, parts)``)."""
    attempts: list[SummaryAttempt] = []

    def rerun(
        note: str | None, summarizer: str | None, parts: frozenset[str] | None = None
    ) -> SummaryAttempt:
        request, keep = base, None
        if summarizer is not None:
            settings = {**base.settings, "summarizer": summarizer}
            request = dataclasses.replace(base, settings=settings)
            say(f"summary gate: asking the {summarizer} summarizer")
        if parts is not None and attempts:  # the other parts: the latest answers, kept
            keep = {k: v for k, v in attempts[-1].parts.items() if k not in parts}
        attempt = summarize(request, note, keep)
        attempts.append(attempt)
        return attempt

    first = rerun(None, None)
    read_files, modified_files = file_lists(preparation.file_ops)
    check = SummaryCheck(
        attempt=first,
        preparation=preparation,
        file_lists=format_file_lists(read_files, modified_files),
        read_files=read_files,
        modified_files=modified_files,
        previous_details=previous_details(path),
        custom_instructions=custom_instructions,
        max_chars=max_chars,
        signal=base.signal,
        rerun=rerun,
        fact_cues=base.fact_cues,
    )
    verdict = hooks.gate_summary(check=check, session=session, failure=failure)
    answers = list({id(s): s for a in attempts for s in a.summaries}.values())  # each call once
    if verdict is None:
        problem = first.reply_problem
        if problem:
            raise TetherError(f"{failure}: {problem}")
        return first.text, first.summaries, None, answers
    if not verdict.text.strip():
        raise TetherError(f"{failure}: the summary gate returned an empty summary")
    report = verdict.report()
    say(gate_line(report))
    return verdict.text, verdict.summaries or first.summaries, report, answers


__all__ = ["gated_summary", "previous_details"]
