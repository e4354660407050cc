"""Change notes for a live fact that still quotes an old value: "(--offline revoked, no
longer in use)", "(db-1 changed to db-3)".

A fact stays verbatim; the note, rendered and restored with it, tells the model which of its
values no longer hold."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tether.builtin_plugins.memory.fact_ledger.ledger import Ledger

REVOKED = "revoked"  # the note of an identifier taken back with nothing in its place


def revisions(ledger: Ledger, text: str) -> dict[str, str]:
    """What happened to each identifier ``text`` quotes that was later revoked or replaced
    by another identifier: ``{"--offline": "--offline revoked, no longer in use"}``."""
    notes: dict[str, str] = {}
    live = {f.text for f in ledger.live("identifier")}
    for fact in ledger.facts:
        if fact.kind != "identifier" or fact.live or fact.text in live or fact.text in notes:
            continue
        if fact.text not in text:
            continue
        if fact.note == REVOKED:
            notes[fact.text] = f"{fact.text} revoked, no longer in use"
            continue
        new = ledger.get(fact.replaced_by) if fact.replaced_by else None
        if new is not None and new.kind == "identifier" and new.text not in text:
            notes[fact.text] = f"{fact.text} changed to {new.text}"
    return notes


def revision_note(ledger: Ledger, text: str) -> str:
    """:func:`revisions` as one note ("" if none)."""
    return "; ".join(revisions(ledger, text).values())


__all__ = ["REVOKED", "revision_note", "revisions"]
