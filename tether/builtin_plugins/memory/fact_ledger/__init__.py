"""The fact ledger: what the user stated, as typed facts that survive every compaction.

One extractor (:mod:`.extract`) reads user messages — and the assistant proposals the user
accepts, errors the user pastes, failing tool output — into typed facts (goal, constraint,
decision, next step, request, open error, identifier), sentence by sentence, verbatim, each
with its source entry id. :class:`.ledger.Ledger` files them: a later statement on the same
subject retires the earlier one (:mod:`.ledger`). Cue words are data, one table per language
(:mod:`.cues`; plugins add tables through ``register_fact_cues``).

The ledger travels in the compaction entry's ``details.gate.ledger`` (pi ignores ``details``);
:func:`.build.build_ledger` continues it from the previous compaction's details, or reads the
previous summary once when those have none. The offline summarizer renders from it and the
summary gate checks every summary against its live facts: there is no second classifier.
"""

from __future__ import annotations

from tether.builtin_plugins.memory.fact_ledger.build import (
    branch_ledger,
    build_ledger,
    stored_ledger,
)
from tether.builtin_plugins.memory.fact_ledger.cues import KINDS, build_cues, default_cues
from tether.builtin_plugins.memory.fact_ledger.ledger import Fact, Ledger
from tether.builtin_plugins.memory.fact_ledger.words import likeness, normal, words_of

__all__ = [
    "KINDS",
    "Fact",
    "Ledger",
    "branch_ledger",
    "build_cues",
    "build_ledger",
    "default_cues",
    "likeness",
    "normal",
    "stored_ledger",
    "words_of",
]
