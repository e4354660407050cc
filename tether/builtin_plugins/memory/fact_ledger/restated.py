"""A sentence that reads as a request but only gives a rule in force a new value ("the sim goes
to a 60 Hz tick", "日志保留期到 14 天"): no task verb, and the same subject of a live rule gets
another value of its class (:func:`~.implicit.shape_change`). It is a rule, and replaces the
old one, as a constraint saying it would."""

from __future__ import annotations

from collections.abc import Iterable

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.implicit import shape_change, values

MAX_RESTATED = 160  # characters: a restated value is one short sentence, not a long request


def restates_rule(text: str, source: str, rules: Iterable[Fact], cues: Cues) -> bool:
    """Whether ``text`` (a request said in ``source``) gives a rule of another message a new
    value without asking for any work."""
    if len(text) > MAX_RESTATED or cues.has("task", text) or not values(text, cues):
        return False
    return any(r.source != source and shape_change(text, r.text, cues) for r in rules)


__all__ = ["restates_rule"]
