"""What a summary keeps word for word beyond the rules: one selection for every summarizer.

The offline summarizer renders these and the summary gate requires exactly these, so an LLM
summary that lost them gets back what the offline summary shows:

- :func:`kept_identifiers`: live identifiers no kept rule quotes, ranked — the most specific
  (a value, a location, an error line) and the most recently said first — within a budget;
- :func:`kept_requests`: requests that state a fact (:func:`.noted.noted`: a value, a reason,
  how a kind of thing is done), the newest first, within a budget.

Nothing is filtered out by shape: what does not fit is dropped from the ledger with a record
(:meth:`.ledger.Ledger.drop`), never silently, and the rest keep the order they were said in.
"""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.ledger import Ledger
from tether.builtin_plugins.memory.fact_ledger.noted import noted

#: Kinds a summary keeps whole: an identifier quoted in one of them needs no line of its own
#: (an open error is not one: only the newest are shown).
QUOTING = frozenset({"goal", "constraint", "decision", "next_step"})
MAX_IDENTIFIERS = 80
MAX_IDENTIFIER_CHARS = 4000
MAX_REQUESTS = 24
MAX_REQUEST_CHARS = 3000
#: What makes an identifier specific: a separator of a path, a key or a location, a flag, an
#: upper-case name with an underscore, words, a name with a number ("v2", "py311"); a bare
#: number ("1.5") is not.
_SPECIFIC = re.compile(r"[/=:@\\]|--|[A-Z0-9]_[A-Z0-9]|\s|[A-Za-z]\S*\d|\d\S*[A-Za-z]")


def _recency(ledger: Ledger) -> dict[str, int]:
    """Each fact's place in the order facts were filed (later = said more recently)."""
    return {fact.id: at for at, fact in enumerate(ledger.facts)}


def _fit(
    ledger: Ledger, ranked: list[Fact], max_items: int, max_chars: int
) -> tuple[list[Fact], list[Fact]]:
    """``ranked`` split into what fits the budgets (in ledger order) and what does not."""
    kept: list[Fact] = []
    left: list[Fact] = []
    size = 0
    for fact in ranked:
        if len(kept) < max_items and size + len(fact.text) <= max_chars:
            kept.append(fact)
            size += len(fact.text) + 4
        else:
            left.append(fact)
    order = _recency(ledger)
    return sorted(kept, key=lambda f: order.get(f.id, 0)), left


def kept_identifiers(
    ledger: Ledger,
    max_items: int = MAX_IDENTIFIERS,
    max_chars: int = MAX_IDENTIFIER_CHARS,
    *,
    record: bool = True,
) -> list[Fact]:
    """Live identifiers a kept rule does not quote, within the budgets (see the module);
    with ``record`` the rest are dropped from ``ledger`` with a record."""
    said = " ".join(f.text for f in ledger.live() if f.kind in QUOTING)
    own = [f for f in ledger.live("identifier") if f.text not in said]
    order = _recency(ledger)
    ranked = sorted(own, key=lambda f: (_SPECIFIC.search(f.text) is None, -order.get(f.id, 0)))
    kept, left = _fit(ledger, ranked, max_items, max_chars)
    if record:
        for fact in left:
            ledger.drop(fact)
    return kept


def kept_requests(
    ledger: Ledger,
    cues: Cues,
    max_items: int = MAX_REQUESTS,
    max_chars: int = MAX_REQUEST_CHARS,
) -> list[Fact]:
    """Live requests that state a fact (:func:`.noted.noted`), the newest first within the
    budgets, in the order they were said (history: shown under ``Done``)."""
    said = [f for f in ledger.live("request", "said") if f.kind == "said" or noted(f.text, cues)]
    kept, _ = _fit(ledger, list(reversed(said)), max_items, max_chars)
    return kept


__all__ = ["QUOTING", "kept_identifiers", "kept_requests"]
