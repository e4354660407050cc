"""A change that names only its value: "make it 2 hours", "bump it to 50", "改成 8 小时吧".

Such a sentence has no subject words of its own: it changes the latest earlier rule stating
a value of its class (a duration, a size, a count…), from another message — unless its own
message has just taken something back ("not using X anymore … switch to Y instead"). And once filed,
it borrows the subject of the rule it replaced: a later "member session timeout 8 hours"
changes "make it 2 hours" (which replaced "member session timeout 30 minutes") as it would
change the sentence it took the place of.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from tether.builtin_plugins.memory.fact_ledger.clauses import split_clauses
from tether.builtin_plugins.memory.fact_ledger.concepts import (
    parts_differ,
    per_parts,
    subjects_differ,
)
from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.faulted import faulted_after, value_spans
from tether.builtin_plugins.memory.fact_ledger.implicit import (
    Value,
    selected,
    shape_change,
    values,
)
from tether.builtin_plugins.memory.fact_ledger.keyvalue import same_unit
from tether.builtin_plugins.memory.fact_ledger.subject import cjk, shaped_pairs
from tether.builtin_plugins.memory.fact_ledger.terse import bare_ack
from tether.builtin_plugins.memory.fact_ledger.words import (
    memo_per_cues,
    vocabulary,
    word_search,
    words_of,
)

_VERSION_VERB = word_search("version_verbs")  # "bump", "upgrade", 升级: of the thing after


class Ledger(Protocol):
    """What a change noted on a next step needs of :class:`~.ledger.Ledger`."""

    def live(self, *kinds: str) -> list[Fact]: ...

    def retire(self, old: Fact, new: Fact | None, status: str = "retired") -> None: ...

    def new_fact(self, kind: str, text: str, source: str, **extra: Any) -> Fact: ...

    @property
    def facts(self) -> list[Fact]: ...


_BLANKED = ("change", "soft_change", "revert", "constraint", "decision", "select")
_PARTICLES = vocabulary("cjk_closing_particles")  # of a CJK sentence: no subject
_FILLER = vocabulary("bare_filler")  # words of a bare change that name no subject


@memo_per_cues
def bare(text: str, cues: Cues) -> bool:
    """Whether ``text`` states one value and no subject ("make it 2 hours")."""
    found = values(text, cues)
    if len(found) != 1:
        return False
    text = cues.blank(text.replace(found[0].text, " "), _BLANKED)
    rest = {
        w
        for w in words_of(text)
        if w not in _FILLER and not w.isdigit() and not set(w) <= _PARTICLES
    }
    return not rest


def bare_part(text: str, cues: Cues) -> str:
    """``text`` when it is bare, else its first clause when that holds a change cue and is
    bare ("make that 02:30 UTC, the runners are busy at 3": the rest gives the reason). A
    bare clause after another one takes its subject from it ("the old gateway is going
    away, switch to ingress"): no bare change. A leading "yes, do it" only answers."""
    if bare(text, cues):
        return text
    first = next((c for c in split_clauses(text) if c.strip() and not bare_ack(c, cues)), "")
    return first if cues.has("change", first) and bare(first, cues) else ""


def bare_head(text: str, cues: Cues) -> bool:
    """Whether ``text``, or its first clause when ``text`` states one value only, states one
    value and no subject ("04:15 then, nothing runs at that time": the rest gives a reason)."""
    if bare(text, cues):
        return True
    if len(values(text, cues)) != 1:
        return False  # "Switch the DB to Postgres and the cache to Valkey": two changes
    first = next((c for c in split_clauses(text) if c.strip()), "")
    return first != text and bare(first, cues)


def bare_change(
    fact: Fact, rules: list[Fact], cues: Cues, said_with: Sequence[Fact] = ()
) -> list[Fact]:
    """The latest earlier rule (another message) stating another value of the class of the
    one value ``fact`` states, when ``fact`` names no subject (see the module) — the one
    stating a value its own message finds fault with, if any; ``said_with``: the facts of
    its own message so far."""
    part = bare_part(fact.text, cues)
    if not part:
        return []
    mine = values(part, cues)[0]
    if part[mine.start + len(mine.text) :].startswith(":"):
        return []  # "grafana: bump it": the label names what changes, it is no new value
    if mine.cls == "name" and _VERSION_VERB.match(part.lstrip()):
        return []  # "Bump Room": the thing to bump, not a new value of some rule
    if mine.cls == "name" and _completes_take_back(fact, said_with, cues):
        return []  # "not using bazel-diff anymore … switch to target-determinator instead"
    if mine.cls == "qty:dims":
        return []  # "make it 320x320": thumbnails, previews… sizes of many things
    instead = faulted_instead(fact, rules, cues, said_with)
    if instead is not None:
        return instead
    for old in sorted(rules[-250:], key=_rules_first, reverse=True):  # requests come last
        if old is fact or not old.live or old.source == fact.source:
            continue
        said = values(old.text, cues)
        if any(
            _same_class(mine, v) and v.text != mine.text and _chosen(old.text, v, cues)
            for v in said
        ):
            return [old]
    return []


def _chosen(text: str, value: Value, cues: Cues) -> bool:
    """Whether ``value`` of ``text`` may be what a bare name replaces: any value but a name,
    and a name written as one ("Postgres") or said as a choice ("use pandas"), not any
    word with a dash ("exit when z-score crosses 0")."""
    if value.cls != "name" or value.text[:1].isupper() or not value.text.isascii():
        return True
    return selected(text[: value.start].rstrip(), cues)


def _rules_first(fact: Fact) -> tuple[bool, int]:
    """Newest first, rules before requests ("switch to vectorbt" changes "I'll use
    backtrader", not the later request "exit when z-score crosses 0")."""
    return fact.kind != "request", _said_order(fact)


def _said_order(fact: Fact) -> int:
    """Where ``fact`` was filed among the others (its id counts up: ``f12``)."""
    digits = fact.id.lstrip("f")
    return int(digits) if digits.isdigit() else -1


def faulted_instead(
    fact: Fact, rules: list[Fact], cues: Cues, said_with: Sequence[Fact]
) -> list[Fact] | None:
    """For a bare ``fact`` whose message finds fault with a value of its class ("01:30
    clashes with the backups. 02:45 then"): the live rule stating that value, or none when
    it is gone already; ``None`` when the message faults no such value. With no fault
    found, the one value of its class the message names stands for it ("Tomasz says 03:30
    is when the vacuum job starts. 04:15 then"), if the latest live rule of its class
    states it ("Grafana keeps 3000. 8081 then" changes the rule said last, not Grafana's)."""
    found = values(fact.text, cues)
    if len(found) != 1:
        return None
    others = [f for f in said_with if f is not fact and f.kind != "said"]
    wanting = _found_wanting(others, cues)
    named = set() if wanting else _named_of_class(found[0], others, cues)
    if not wanting and not named:
        return None
    for old in reversed(rules[-250:]):
        if old is not fact and old.live and old.source != fact.source:
            said = values(old.text, cues)
            if any(_of_class(found[0], v) and _names_any(v.text, wanting | named) for v in said):
                return [old]
            if named and any(_of_class(found[0], v) for v in said):
                return None  # "Redis keeps 6379. 5050 then": of the latest rule of the class
    return None if named else []  # a value only named, no rule of it: no answer to it


def _named_of_class(new: Value, said: Sequence[Fact], cues: Cues) -> set[str]:
    """The one value of ``new``'s class the other sentences of its message name ("Tomasz
    says 03:30 is when the vacuum job starts. 04:15 then"): a bare value after it answers
    it. Empty when they name none or several."""
    named = {v.text for f in said for v in values(f.text, cues) if _same_class(new, v)}
    return named if len(named) == 1 and new.text not in named else set()


def _of_class(new: Value, old: Value) -> bool:
    """Whether ``new`` may replace ``old``: of one class, or a bare number for a quantity
    whose number was found wanting ("50000 was too aggressive … make it 10000")."""
    return _same_class(new, old) or (new.cls == "num" and old.cls.startswith("qty:"))


def _names_any(value: str, wanting: set[str]) -> bool:
    return any(w in value for w in wanting)  # "at 01:30" names "01:30"


def _found_wanting(said: Sequence[Fact], cues: Cues) -> set[str]:
    """The values the facts ``said`` find fault with ("01:30 clashes with the backups")."""
    return {
        f.text[a:b] for f in said for a, b in value_spans(f.text, cues) if faulted_after(f.text, b)
    }


def _completes_take_back(fact: Fact, mine: Sequence[Fact], cues: Cues) -> bool:
    """Whether a sentence of ``fact``'s own message before it takes something back ("We're
    not using bazel-diff anymore … Switch to target-determinator instead"): a bare name
    comes in its place, not in place of the latest rule naming a thing."""
    return any(f is not fact and f.kind != "said" and cues.has("revoke", f.text) for f in mine)


_KEPT_PER_PERIOD = frozenset({"qty:hourly", "qty:daily", "qty:weekly", "qty:monthly"})
_DOTTED_VERSION = re.compile(r"^v?\d+\.\d+\.\d+")  # three parts: no decimal number


def _same_class(mine: Any, theirs: Any) -> bool:
    """Values of one class; a bare dotted version ("bump to 7.0.12") is of a named one's
    ("JUCE 7.0.5")."""
    if mine.cls == theirs.cls:
        return True
    if mine.cls == "num" and theirs.cls in _KEPT_PER_PERIOD:
        return True  # "make it 14" after "keep 7 daily snapshots"
    return (
        mine.cls == "num"
        and theirs.cls.startswith("version")
        and bool(_DOTTED_VERSION.match(mine.text) and _DOTTED_VERSION.match(theirs.text))
    )


_AT = re.compile(r"^(?:at|on|by)\s+", re.IGNORECASE)


def note_step(ledger: Ledger, fact: Fact, found: list[Fact], cues: Cues) -> bool:
    """A bare change said right after a next step that states a value of its class ("next:
    add the nightly job, cron at 03:00" / "make that 02:30"): the step stays (its task is
    still next) and its old value is noted as changed — an identifier of the old value
    replaced by one of the new, which the step is shown with. Not when the rule ``found`` for
    the change was said after the step."""
    part = bare_part(fact.text, cues)
    if not part:
        return False
    mine = values(part, cues)[0]
    after = ledger.facts.index(found[0]) if found else -1
    for step in reversed(ledger.live("next_step")):
        if step.source == fact.source:
            continue
        if ledger.facts.index(step) < after:
            return False
        olds = [v for v in values(step.text, cues) if v.cls == mine.cls and v.text != mine.text]
        if not olds:
            continue
        new_text = _AT.sub("", mine.text)
        new = next((f for f in ledger.live("identifier") if f.text == new_text), None)
        new = new or ledger.new_fact("identifier", new_text, fact.source, parent=fact.id)
        old = ledger.new_fact("identifier", _AT.sub("", olds[-1].text), step.source)
        ledger.retire(old, new)
        return True
    return False


def inherited(
    fact: Fact, rules: list[Fact], cues: Cues, replaced: Callable[[Fact], list[Fact]]
) -> list[Fact]:
    """The earlier bare rules whose borrowed subject ``fact`` gives another value."""
    out = []
    for old in rules[-250:]:
        if old is fact or not old.live or old.source == fact.source or not bare(old.text, cues):
            continue
        prior = replaced(old)[:1]
        if prior and shape_change(fact.text, f"{prior[0].text} {old.text}", cues):
            out.append(old)
    return out


def same_shape(
    fact: Fact, rules: list[Fact], cues: Cues | None, *, cued: bool
) -> tuple[float, Fact] | None:
    """A change with no look-alike in words — cued, or written in another script than
    the original ("上传上限改成 50MB" after "Uploads are capped at 20MB"): the one earlier
    rule stating another value of the same shape (unit, key) is the one it changes."""
    mine = cjk(fact.text)  # cued: the value must stand in the clause of the cue
    start, end = cues.cue_span(fact.text, ("change", "revoke")) if cued and cues else (0, None)
    said = fact.text[start:end]
    found = [
        old
        for old in rules[-250:]
        if old is not fact
        and old.live
        and (cued or cjk(old.text) != mine)
        and (shaped_pairs(said, old.text) or same_unit(said, old.text))
        and not (cues is not None and parts_differ(fact.text, old.text, cues.concepts))
        and not (cues is not None and subjects_differ(fact.text, old.text, cues.concepts))
        and not (cues is not None and per_parts(fact.text, old.text, cues.concepts))
    ]
    if len(found) > 1 and fact.source:  # "40%浇得太勤了。阈值改为35%": a remark beside the
        found = [old for old in found if old.source != fact.source]  # change, not its rule
    return (0.0, found[0]) if len(found) == 1 else None


__all__ = [
    "bare",
    "bare_change",
    "bare_head",
    "bare_part",
    "inherited",
    "note_step",
    "same_shape",
]
