"""A rule whose choice a later sentence finds fault with, and picks another in its place.

"just plain sql piped to gzip, .sql.gz" then "gzip is too slow on 200GB, …, so use .sql.zst
and zstd -T0"; "我们用 Celery 跑任务" then "Celery 太重了，改用 RQ": the sentence names a word
of the earlier rule, finds fault with it (``criticism_words``: too slow, 太重), and after
that clause picks (``pick_words``: use, go with, 改用) something the rule does not name. The
rule's clauses naming the faulted thing are replaced; a prohibition never is, nor a rule of
the same message, nor one when the fault or the pick is said of a part the rule does not name
("too slow for the logs pipeline", "use lz4 there").
"""

from __future__ import annotations

import re
from itertools import pairwise

from tether.builtin_plugins.memory.fact_ledger.clauses import Ledger, retire_rule
from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.faulted import (
    CRITICISM,
    faulted_after,
    faults_first,
    only_faulted,
    value_spans,
)
from tether.builtin_plugins.memory.fact_ledger.faultyversion import retire_faulted_versions
from tether.builtin_plugins.memory.fact_ledger.keyvalue import values_said
from tether.builtin_plugins.memory.fact_ledger.words import (
    STOP,
    negated,
    stemmed,
    word_search,
    words_of,
)

_PICK = word_search("pick_words")
_NAME = re.compile(r"[A-Za-z][\w.+-]*[\w+]|\d[\w.:/]*|[\u3400-\u9fff]{2,}")
#: What the pick names: the next token after the pick word.
_PICKED = re.compile(r"\s*(?:the\s+|a\s+)?([^\s,;，；。]+)")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
#: Words after a pick word that name no thing picked: "use two files", "use it via …".
_NO_PICK = frozenset(
    "it them that this those these both each all one two three four five some more less".split()
)
MAX_EARLIER = 100  # live rules looked at, newest first
NEAR_NAME = 30  # characters between a name and the fault found with it
_MIN_NAME = 2


def _faulted_names(said: str) -> list[tuple[str, int]]:
    """Each name ``said`` finds fault with, with where it ends (read once per message)."""
    out = []
    for match in _NAME.finditer(said):
        name = match.group(0).rstrip(".:/")
        if len(name) < _MIN_NAME or name.casefold() in STOP:
            continue
        fault = CRITICISM.search(said, match.end())
        near = fault is not None and fault.start() - match.end() <= NEAR_NAME
        if near and faulted_after(said, match.end()):  # "the slack channel is wrong": not
            out.append((name, match.end()))  # "team" of "the team decided … is wrong"
    return out


def _pick_at(said: str, name: str, after: int, rule: str) -> int:
    """Where, after ``after``, ``said`` picks something ``rule`` does not name (a pick word
    and what it names; for a faulted number, another number: "64 is too coarse … make chunks
    32m"), or -1."""
    for pick in _PICK.finditer(said, after):
        named = _PICKED.match(said, pick.end())
        picked = named.group(1).strip(".").casefold() if named else ""
        if picked and picked not in _NO_PICK and picked not in rule.casefold():
            return pick.start()
    if _NUMBER.fullmatch(name):
        for number in _NUMBER.finditer(said, after):
            if number.group(0) != name and number.group(0) not in rule:
                return number.start()
    return -1


MAX_MESSAGE_FACTS = 200  # the newest facts, where one message's facts are


def _facts_of(ledger: Ledger, source: str) -> list[Fact]:
    """The facts of message ``source`` (read among the newest: compaction stays linear);
    none without an entry id, where no message can be told from another."""
    if not source:
        return []
    return [f for f in ledger.facts[-MAX_MESSAGE_FACTS:] if f.source == source]


def retire_faulted_choices(ledger: Ledger, source: str, said: str, cues: Cues) -> None:
    """Retire each earlier rule whose choice the message ``said`` (entry ``source``) finds
    fault with and replaces with a pick of its own (the fact saying the pick replaces it)."""
    news = [f for f in _facts_of(ledger, source) if f.live and f.kind in _RULES]
    if not news:
        return
    faulted = _faulted_names(said) if CRITICISM.search(said) else []
    if not faulted:
        return
    rules = [f for f in ledger.live("constraint") + ledger.live("decision") if f.source != source]
    for old in reversed(rules[-MAX_EARLIER:]):
        if negated(old.text):
            continue  # "never use gzip": a fault found with gzip is no change of it
        named = {m.group(0).casefold() for m in _NAME.finditer(old.text)}
        mine = [(name, end) for name, end in faulted if name.casefold() in named]
        found = _replacing(said, old.text, mine, news) if mine else None
        if found is not None:
            new, name = found
            retire_rule(ledger, old, new, cues, changes=lambda c, n=name: _names(c, n))


def _replacing(
    said: str, rule: str, faulted: list[tuple[str, int]], news: list[Fact]
) -> tuple[Fact, str] | None:
    """The fact of ``news`` holding the pick that replaces ``rule``'s faulted choice (one of
    ``faulted``, names the rule says), and the name found wanting; none when the fault is said
    of a part the rule does not name ("too slow for the logs pipeline", "on CI", "for local
    runs") or the pick is negated."""
    for name, end in faulted:
        if _narrowed(said, end, rule):
            continue
        at = _pick_at(said, name, end, rule)
        if at >= 0 and not negated(said[max(0, at - 12) : at + 1]):
            clause = said[at : at + 12]
            found = next((f for f in news if clause in f.text), None)
            if found is not None:
                return found, name
    return None


#: A fault said of a part: "too slow for the logs pipeline", "too heavy for the small jobs".
_FAULT_FOR = re.compile(r"\s+(?:for|on|in|during)\s+(?:the\s+|our\s+)?([\w-]+(?:\s[\w-]+)?)", re.I)
#: A pick said of a part: "use lz4 there", "use pandas for those", "for local runs use 2".
_PICK_FOR = re.compile(r"\b(?:there|locally|for (?:those|these|them|that part|local\b))", re.I)


def _narrowed(said: str, end: int, rule: str) -> bool:
    """Whether the fault found after ``end`` is said of a part the rule does not name ("too
    slow for the logs pipeline"), or the pick of a part ("so use lz4 there")."""
    fault = CRITICISM.search(said, end)
    if fault is not None:
        part = _FAULT_FOR.match(said, fault.end())
        words = part.group(1) if part else ""
        if words and not any(ch.isdigit() for ch in words):
            if not any(w.casefold() in rule.casefold() for w in words.split()):
                return True
    return _PICK_FOR.search(said, end, end + 160) is not None


def _names(clause: str, name: str) -> bool:
    return re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", clause, re.IGNORECASE) is not None


_RULES = ("constraint", "decision", "request")


def retire_faults(ledger: Ledger, source: str, said: str, cues: Cues) -> None:
    """What message ``said`` (entry ``source``) finds fault with: the choices it replaces
    (:func:`retire_faulted_choices`), then its sentences that only give the reason
    (:func:`retire_fault_reasons`, :func:`~.faultyversion.retire_faulted_versions`)."""
    retire_faulted_choices(ledger, source, said, cues)
    retire_fault_reasons(ledger, source, cues)
    retire_faulted_versions(ledger, source, cues)
    retire_gone_reasons(ledger, source, cues)


def retire_gone_reasons(ledger: Ledger, source: str, cues: Cues) -> None:
    """A rule of message ``source`` that ended others by saying their value is gone ("Gazebo
    Classic is EOL and doesnt even build on jazzy.") is the reason for the change its next
    rule makes ("switch to Gazebo Harmonic"): it retires, shown by that change — when it
    states no rule or value of its own and the change names a word of what it ended."""
    mine = [f for f in _facts_of(ledger, source) if f.kind in _RULES]
    for reason, change in pairwise(mine):
        if not (reason.live and change.live and reason.replaces) or change.replaces:
            continue
        if not cues.has("gone", reason.text) or not cues.has("change", change.text):
            continue
        if any(cues.has(kind, reason.text) for kind in ("change", "constraint")):
            continue  # "…, so everything must use the v3 SDK": a rule of its own
        ended = [f for f in ledger.facts if f.replaced_by == reason.id]
        said = " ".join(f.text for f in ended)
        if negated(reason.text) or not all(v in said for v in values_said(reason.text)):
            continue  # "… is EOL, the minimum is now 3.10": a new value, no reason only
        theirs = stemmed(set().union(*(words_of(f.text) for f in ended)) - STOP)
        if stemmed(words_of(change.text) - STOP - cues.words("change")) & theirs:
            ledger.retire(reason, change)  # "switch to Gazebo Harmonic" after "… Classic"


def retire_fault_reasons(ledger: Ledger, source: str, cues: Cues) -> None:
    """Retire each rule of message ``source`` that only finds fault with old values ("03:30
    clashes with the plex library scan"), or first with one and then tells what was seen,
    when another fact of that message replaced the rules naming them ("04:15 then"): a
    reason given for the change, shown by the change."""
    mine = {f.id: f for f in _facts_of(ledger, source) if f.live}
    if not any(f.replaces for f in mine.values()):
        return  # the message replaced nothing: no reason to give
    replaced = [
        f for f in ledger.facts if not f.live and f.source != source and f.replaced_by in mine
    ]
    if not replaced:
        return
    for fact in list(mine.values()):
        if fact.kind not in _RULES:
            continue
        if only_faulted(fact.text, cues):
            said = [fact.text[a:b] for a, b in value_spans(fact.text, cues)]
        else:  # "50000 was too aggressive, … it spiked to 40s": what was seen says why
            said = [] if fact.replaces else faults_first(fact.text, cues)
        by = [next((o for o in replaced if v in o.text), None) for v in said]
        new = mine[by[0].replaced_by] if said and all(by) and by[0] is not None else fact
        if new is not fact:
            ledger.retire(fact, new)


__all__ = [
    "retire_fault_reasons",
    "retire_faulted_choices",
    "retire_faults",
    "retire_gone_reasons",
]
