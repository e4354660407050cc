"""A request filed again as a rule: one that gave a rule's key a new value ("rename mod id to
copperpipes", "bump the pool to 40") states what holds now."""

from __future__ import annotations

from typing import Any

from tether.builtin_plugins.memory.fact_ledger.fact import Fact


def as_rule(ledger: Any, fact: Fact) -> None:
    """File the request ``fact`` again as a constraint (the ledger's live index is rebuilt)."""
    if fact.kind == "request":
        fact.kind = "constraint"
        if getattr(ledger, "_index", None) is not None:
            ledger._index = None  # filed again under its new kind, in order


__all__ = ["as_rule"]
