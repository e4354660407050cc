"""A limit is not changed by a measurement: "PR checks under 10 minutes" stays the target
when a later "the PR run is 13 min" reports how long it took, and "P99 200ms 以内" stays when
"压测 P99 是 350ms". A rule stating a bound (a ``bound_words`` word with a number in one
clause) is not replaced by a sentence that reports a number (a ``measure_words`` word: is,
took, 实测, 耗时…) and states no bound; "now" or a change cue ("make it 15 minutes max",
"改成 15 分钟") still changes it."""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.words import CLAUSES, word_search

_BOUND = word_search("bound_words")
_NUMBER = re.compile(r"\d")
_MEASURED = word_search("measure_words")


def states_bound(text: str) -> bool:
    """Whether a clause of ``text`` puts a bound on a number ("under 10 minutes", "200ms 以内")."""
    return any(_BOUND.search(c) and _NUMBER.search(c) for c in CLAUSES.split(text) if c)


def measures_bound(new: str, old: str, cues: Cues, *, cued: bool) -> bool:
    """Whether ``new`` only reports a measure of what ``old`` bounds: ``old`` states a bound,
    ``new`` reports a number, states no bound, and carries no change cue nor "now"."""
    if cued or not states_bound(old) or not (_NUMBER.search(new) and _MEASURED.search(new)):
        return False  # "4 GB of heap": a setting, not a report
    if any(cues.has(kind, new) for kind in ("change", "current", "soft_change")):
        return False
    return not states_bound(new)


__all__ = ["measures_bound", "states_bound"]
