"""Which part of a split turn's summary a retry asks again: the history, the turn prefix, both.

A part whose answer is not a summary (a tool call, a cut reply, a prompt echo) is asked again.
A missing item belongs to the part whose messages it came from: a section of the checkpoint to
the history; a fact of the ledger to the turn prefix when its source entry is one of the
prefix's, else to the history (which also carries the previous summary's facts). An item whose
source is unknown (a modified file, a fact without an entry id) asks for every part.
"""

from __future__ import annotations

from typing import Any

from tether.builtin_plugins.memory.summary_gate.echo import echo_problem
from tether.builtin_plugins.memory.summary_gate.required import RequiredItem
from tether.hookspecs.gate import SummaryCheck

HISTORY, TURN_PREFIX = "compaction", "turn_prefix"


def _item_part(item: RequiredItem, ledger: Any, prefix_ids: set[str]) -> str | None:
    """The part ``item`` belongs to; ``None``: unknown."""
    if item.rule == "section":
        return HISTORY
    fact = ledger.get(item.origin) if ledger is not None else None
    if fact is None or not fact.source:
        return None
    return TURN_PREFIX if fact.source in prefix_ids else HISTORY


def parts_to_retry(
    check: SummaryCheck, lacking: list[RequiredItem], record: dict[str, Any]
) -> set[str] | None:
    """The parts of ``check.attempt`` to ask again (``None``: all of them)."""
    from tether.builtin_plugins.memory.fact_ledger import Ledger

    parts = check.attempt.parts
    if len(parts) < 2:
        return None
    wanted = {
        name
        for name, summary in parts.items()
        if summary.reply_problem or echo_problem(summary.text)
    }
    ledger = Ledger.from_json(record.get("ledger"))
    prefix_ids = set(check.preparation.turn_prefix_entry_ids)
    for item in lacking:
        part = _item_part(item, ledger, prefix_ids)
        if part is None or part not in parts:
            return None
        wanted.add(part)
    return wanted or None


__all__ = ["parts_to_retry"]
