"""A message that names a rule's old number and gives another of its unit changes it:
"writing every 5000 is eating my quota, every 20000 steps is plenty" after "write output every
5000 steps"; "64 太粗了，块大小改成 96 米" after "块大小 64 米". No cue word is needed: the old
number said again, beside a new one of the same unit, is the change. A rule holding two
numbers of that unit is left alone (which one would change is unclear)."""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.clauses import retire_rule
from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.slots import slots
from tether.builtin_plugins.memory.fact_ledger.supersede import Ledger

_NUMBER = re.compile(r"\d+(?:\.\d+)?")
MAX_EARLIER = 250  # live rules looked at, newest first


def _quantities(text: str) -> dict[str, list[str]]:
    """The numbers of ``text`` per unit (``qty:step`` → ["5000"])."""
    out: dict[str, list[str]] = {}
    for slot in slots(text):
        found = _NUMBER.match(slot.text)
        if slot.shape.startswith("qty:") and found:
            out.setdefault(slot.shape, []).append(found.group(0))
    return out


def _names(text: str, number: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(number)}(?![\w]|\.\d)", text) is not None


def retire_named_old(ledger: Ledger, source: str, said: str, cues: Cues) -> None:
    """Retire the earlier rules whose one number of a unit the message ``said`` (entry
    ``source``) names again while one of its facts gives that unit another number."""
    if not source or not _NUMBER.search(said):
        return
    news = [
        (fact, _quantities(fact.text))
        for fact in ledger.facts
        if fact.source == source and fact.live and fact.kind in ("constraint", "decision")
    ]
    news = [(fact, units) for fact, units in news if units]
    if not news:
        return
    rules = [f for f in ledger.live("constraint") + ledger.live("decision") if f.source != source]
    for old in rules[-MAX_EARLIER:]:
        for unit, numbers in _quantities(old.text).items():
            if len(numbers) != 1 or not _names(said, numbers[0]):
                continue
            new = next((f for f, units in news if _changes(units.get(unit, []), numbers[0])), None)
            if new is not None and old.live:
                retire_rule(ledger, old, new, cues)


def _changes(numbers: list[str], old: str) -> bool:
    """Another number of the unit: "10 秒" beside "30 秒太慢了" changes the 30."""
    return any(number != old for number in numbers)


__all__ = ["retire_named_old"]
