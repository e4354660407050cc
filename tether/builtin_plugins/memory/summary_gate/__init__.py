"""Built-in plugin ``summary_gate``: no compaction summary that lost what matters is written.

Answers ``gate_summary`` (``trylast``: an installed gate replaces it; ``--disable-plugin
summary_gate`` turns gating off, e.g. to write exactly what pi would). Every summary, from any
summarizer, is checked against :func:`.required.required_items`: a real text answer (not a
tool call, not cut at the output limit, not empty, not an echo of the prompt, no template
placeholder left such as ``[The outcome …]``), the checkpoint sections, the goal and every live
fact of the fact ledger (constraints, decisions, requests, the next step in force, open errors,
identifiers — in any language, and never a retired value), the modified files. The ledger is
stored in ``details.gate.ledger`` for the next compaction.

On failure: ONE retry of the same summarizer, its instructions naming exactly what is missing
(none for the deterministic ``offline`` summarizer). On a split turn the retry asks again only
for the part that lacked something (:mod:`.parts`): the history or the turn prefix.
If the retry is still incomplete, the missing items are added verbatim in a carried-forward
block (at most ``CARRY_MAX_CHARS``); if the answers were not real summaries (or the block would
be too long) the ``offline`` summarizer takes over (and anything it lacks is carried forward
too). The verdict — ``passed``, ``retried``, ``carried_forward``, ``fallback`` — and the
missing items go to ``details.gate`` of the compaction entry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tether.hookspecs import hookimpl

if TYPE_CHECKING:  # imported when a compaction runs, not at start-up
    from tether.builtin_plugins.memory.summary_gate.required import RequiredItem
    from tether.hookspecs.gate import GateVerdict, SummaryAttempt, SummaryCheck

#: Summarizers that give the same answer again: no retry (its note would only be quoted back).
DETERMINISTIC = frozenset({"offline"})


def _with_block(text: str, block: str) -> str:
    return f"{text.rstrip()}\n\n{block}" if block else text


def _fallback(
    check: SummaryCheck,
    items: list[RequiredItem],
    missing: list[str],
    record: dict[str, Any],
    latest: SummaryAttempt | None = None,
) -> GateVerdict:
    """The offline summarizer's summary, with anything it lacks carried forward too. Given
    the ``latest`` attempt, only its parts that are no summary are handed over (a split
    turn's good part is kept); else every part."""
    from tether.builtin_plugins.memory.summary_gate.carry import carried_block, missing_items
    from tether.builtin_plugins.memory.summary_gate.echo import echo_problem
    from tether.hookspecs.gate import GateVerdict

    parts = latest.parts if latest is not None else {}
    bad = {n for n, s in parts.items() if s.reply_problem or echo_problem(s.text)}
    attempt = check.fallback("offline", bad if bad and len(bad) < len(parts) else None)
    still = missing_items(attempt.text, check.file_lists, items)
    text = _with_block(attempt.text, carried_block(still))
    carried = [i.label() for i in still]
    return GateVerdict(text, "fallback", missing, carried, attempt.summaries, record)


def _retry(check: SummaryCheck, note: str, parts: set[str] | None) -> SummaryAttempt | None:
    """The retry's answer; ``None`` when the summarizer failed (the user's abort is raised)."""
    try:
        return check.retry(note, parts)
    except Exception:  # a failing retry is one more reason to carry forward or fall back
        if check.aborted:
            raise
        return None


def review(check: SummaryCheck) -> GateVerdict:
    """The built-in gate's verdict on ``check`` (see the module's docstring)."""
    from tether.builtin_plugins.memory.summary_gate.carry import (
        CARRY_MAX_CHARS,
        carried_block,
        missing_items,
        retry_note,
    )
    from tether.builtin_plugins.memory.summary_gate.echo import reply_problem
    from tether.builtin_plugins.memory.summary_gate.parts import parts_to_retry
    from tether.builtin_plugins.memory.summary_gate.required import required_items
    from tether.hookspecs.gate import GateVerdict

    items, record = required_items(check)
    problem = reply_problem(check.attempt)
    lacking = [] if problem else missing_items(check.text, check.file_lists, items)
    if not problem and not lacking:
        return GateVerdict(check.text, "passed", record=record)
    missing = ([f"reply: {problem}"] if problem else []) + [i.label() for i in lacking]
    deterministic = all(s.summarizer in DETERMINISTIC for s in check.attempt.summaries)
    parts = parts_to_retry(check, lacking, record)
    again = None if deterministic else _retry(check, retry_note(lacking, problem), parts)
    if again is not None and not reply_problem(again):
        base, still = again, missing_items(again.text, check.file_lists, items)
        if not still:
            return GateVerdict(again.text, "retried", missing, [], again.summaries, record)
    elif problem:
        return _fallback(check, items, missing, record, again or check.attempt)
    else:
        base, still = check.attempt, lacking
    block = carried_block(still)
    if len(block) > CARRY_MAX_CHARS:
        return _fallback(check, items, missing, record)
    carried = [i.label() for i in still]
    text = _with_block(base.text, block)
    return GateVerdict(text, "carried_forward", missing, carried, base.summaries, record)


def _note_dropped(verdict: GateVerdict) -> GateVerdict:
    """Requests the written summary no longer holds (dropped to fit the size cap, or left out
    by the summarizer) are marked dropped in the ledger, with a record: never silently."""
    from tether.builtin_plugins.memory.fact_ledger import Ledger
    from tether.builtin_plugins.memory.summary_gate.carry import normalized

    ledger = Ledger.from_json(verdict.record.get("ledger"))
    if ledger is None:
        return verdict
    words = normalized(verdict.text)
    if ledger.drop_missing(lambda text: normalized(text) in words):
        verdict.record["ledger"] = ledger.to_json()
    return verdict


@hookimpl(trylast=True)
def gate_summary(check: SummaryCheck) -> GateVerdict:
    return _note_dropped(review(check))


__all__ = ["gate_summary", "review"]
