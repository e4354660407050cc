"""A remark on a value already replaced: "the old db1.internal was always slow", "mich hat der
alte db1.intern echt genervt".

Every value such a sentence states is one only retired facts state and no live fact says, and
it marks one as old ("the old …", 旧的 …: ``old_words``) or finds fault with it: it looks
back at what a change ended ("the DB is on db1.internal again" restates it instead). It sets
nothing — it never replaces the rule now in force — and it is no rule of its own: it retires
at once, shown by the fact in force that replaced the value (the last of a chain of changes).
A sentence with a cue of a change, a take-back or a revert ("go back to db1.internal") is no
such remark: :mod:`.revert` reads it.
"""

from __future__ import annotations

from typing import Protocol

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.faulted import CRITICISM, faulted_after
from tether.builtin_plugins.memory.fact_ledger.implicit import Value, values
from tether.builtin_plugins.memory.fact_ledger.keyvalue import values_said
from tether.builtin_plugins.memory.fact_ledger.words import word_search

_OLD = word_search("old_words")
_STANDING = word_search("standing_words")  # "keep the old v1 API …", "… which must stay up"
OLD_REACH = 12  # characters from an "old" word to the value it marks
OLD_AFTER = 30  # … or after it, in a remark on it ("the $50 number was from the old shop")

TASK_REACH = 12  # characters where a verb of work opens an instruction ("Run the old 3.10 …")
MAX_CHAIN = 20  # changes followed from the retired fact to the one in force


class Ledger(Protocol):
    """What this module needs of :class:`~.ledger.Ledger`."""

    facts: list[Fact]

    def live(self, *kinds: str) -> list[Fact]: ...

    def get(self, fact_id: str) -> Fact | None: ...


def looks_back(ledger: Ledger, text: str, besides: Fact) -> bool:
    """Whether ``text`` (a clause of ``besides``, the rule now being replaced) only remarks on
    old values ("the $50 number was from the old shop"): each value it states is one only
    retired facts or ``besides`` state, and it marks one as old or finds fault with it."""
    if _OLD.search(text) is None:
        return False  # (a fault is no sign here: "keep --reruns=3 for the flaky UI tests")
    said = values_said(text)
    if not said or not any(_marked_old(text, value) for value in said):
        return False
    others = [f for f in ledger.live() if f is not besides and f.kind not in ("identifier", "said")]
    live = " ".join(f.text for f in others)
    retired = " ".join(f.text for f in ledger.facts if f.status == "retired")
    return all(v not in live and (v in retired or v in besides.text) for v in said)


def in_force_instead(ledger: Ledger, fact: Fact, cues: Cues) -> Fact | None:
    """The live fact that replaced every value ``fact`` states, when only retired facts state
    them (``fact`` only remarks on old values); ``None`` otherwise, and for a standing
    instruction about an old value ("Keep the old v1 API for mobile clients", "the old
    bucket still holds the backups, leave it alone")."""
    if not (_OLD.search(fact.text) or CRITICISM.search(fact.text)):
        return None  # nothing marked old or found wanting (most sentences: no reading more)
    if _STANDING.search(fact.text) or cues.has("task", fact.text[:TASK_REACH]):
        return None
    said = values_said(fact.text)  # and the names it says ("the old Vuetify theme …")
    said += [v.text for v in values(fact.text, cues) if _proper(v) and v.text not in said]
    if not said or not any(_looked_back(fact.text, value) for value in said):
        return None
    live = " ".join(f.text for f in ledger.live() if f is not fact and f.kind != "identifier")
    holder: Fact | None = None
    for value in said:
        if value in live:
            return None  # a value still in force: the sentence speaks of it
        holder = next(
            (
                f
                for f in reversed(ledger.facts)
                if f.status == "retired" and f.kind != "identifier" and value in f.text
            ),
            None,
        )
        if holder is None:
            return None  # a value never said before: news
    for _ in range(MAX_CHAIN):
        if holder is None or holder.live or not holder.replaced_by:
            break
        holder = ledger.get(holder.replaced_by)
    return holder if holder is not None and holder.live and holder is not fact else None


def _proper(value: Value) -> bool:
    """A name written as one: capitalised or with a digit ("Vuetify", "np2"), not "gone"."""
    written = value.text[:1].isupper() or any(ch.isdigit() for ch in value.text)
    return value.cls == "name" and written


def _looked_back(text: str, value: str) -> bool:
    """Whether ``text`` marks ``value`` as old ("the old X", "der alte X") or finds fault
    with it right after it."""
    at = text.find(value)
    return at >= 0 and (_marked_old(text, value) or faulted_after(text, at + len(value)))


def _marked_old(text: str, value: str) -> bool:
    """Whether an "old" word stands near ``value`` in ``text`` ("the old X", "the X number
    was from the old shop", "der alte X")."""
    at = text.find(value)
    if at < 0:
        return False
    near = text[max(0, at - OLD_REACH) : at + len(value) + OLD_AFTER]
    return _OLD.search(near) is not None


__all__ = ["in_force_instead", "looks_back"]
