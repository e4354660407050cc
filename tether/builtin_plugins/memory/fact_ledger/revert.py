"""Going back to an earlier value: "go back to the old timeout", "revert to the previous port",
"用回原来的日志级别", "还是用之前的", "undo that".

A sentence with a ``revert`` cue takes back the latest change of the subject it names (the
words it shares with a changed fact or the fact that one replaced), or — when it names none,
"undo that" — the change of the latest earlier message. The change is retired, and the value
it replaced is in force again: the replaced fact (or the one clause of it the change
replaced) is filed anew, verbatim, as the fact that retires the change (a retired fact is
never live again). A sentence of the reverting message
that names a value only the change said ("-O3 made the binary bigger") is a remark on it and
retires with it. A revert that names a value no earlier fact said is a change, not a revert:
it is left to :mod:`.supersede`.
"""

from __future__ import annotations

import re
from typing import Protocol

from tether.builtin_plugins.memory.fact_ledger.clauses import split_clauses
from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.faulted import faulted, revert_faulted
from tether.builtin_plugins.memory.fact_ledger.implicit import values
from tether.builtin_plugins.memory.fact_ledger.words import normal, words_of


class Ledger(Protocol):
    """What reverting needs of :class:`~.ledger.Ledger`."""

    facts: list[Fact]

    def get(self, fact_id: str) -> Fact | None: ...

    def retire(self, old: Fact, new: Fact | None, status: str = "retired") -> None: ...

    def new_fact(self, kind: str, text: str, source: str, **extra: object) -> Fact: ...


_KINDS = ("constraint", "decision", "request")
#: A token shaped like a value: a flag (``-O3``, ``--fast``) or a word with a digit (``45s``).
_VALUE_TOKEN = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*|(?<![\w.-])[\w.:/-]*\d[\w.:/-]*\w")
MAX_EARLIER = 250


_CLAUSE = re.compile(r"[,;:!?，；：。！？]|\.(?:\s|$)|\s[-—–]+\s")


def _cue_clause(text: str, cues: Cues) -> str:
    """The clause of ``text`` holding its revert cue ("scratch that" of "wait no, scratch
    that, the backfill would hammer the ERP": the reason is no subject)."""
    span = cues.find("revert", text)
    if span is None:
        return text
    starts = [0, *(m.end() for m in _CLAUSE.finditer(text) if m.end() <= span[0])]
    ends = [m.start() for m in _CLAUSE.finditer(text) if m.start() >= span[1]]
    return text[max(starts) : min(ends, default=len(text))]


def deictic(text: str, cues: Cues, rules: list[Fact]) -> bool:
    """A revert naming nothing but what was just said ("scratch that", "undo that", "算了"):
    it takes back the latest earlier message, whatever words that shares with others — unless
    the sentence gives a value of a class an earlier rule (``rules``) states ("Scratch that,
    90 minutes is fine" after "stays under 45 minutes"): a correction, not a take-back."""
    if not cues.has("revert", text) or _subject(_cue_clause(text, cues), cues):
        return False
    mine = {v.cls for v in values(text, cues) if v.cls != "name"}
    return not any(v.cls in mine for rule in rules for v in values(rule.text, cues))


def _subject(text: str, cues: Cues) -> set[str]:
    """The words of ``text`` with its cue phrases blanked (what the revert is about)."""
    return words_of(
        cues.blank(text, ("revert", "change", "revoke", "constraint", "decision", "task"))
    )


def _stems(words: set[str]) -> set[str]:
    """ASCII words without a plural ending ("batches" → "batch"); other words as they are."""
    out = set()
    for word in words:
        if word.isascii() and len(word) > 4 and word.endswith("es"):
            word = word[:-2]
        elif word.isascii() and len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        out.add(word)
    return out


def _priors(ledger: Ledger, change: Fact) -> list[Fact]:
    """The facts ``change`` replaced directly (retired rules, not identifiers)."""
    out = []
    for fact_id in change.replaces:
        old = ledger.get(fact_id)
        if old is not None and old.kind in _KINDS and not old.live:
            out.append(old)
    return out


def _named_values(text: str, cues: Cues) -> list[str]:
    return [v.text for v in values(text, cues) if v.cls != "name" or not v.text.islower()]


_WORD = re.compile(r"[\w][\w.+-]*[\w+]")


def _faulted_words(text: str) -> set[str]:
    """The words ``text`` finds fault with that carry a digit or a separator ("fp16", "lz4",
    "gpu-h100"): a value, not a plain word."""
    return {
        w.casefold() for w in _WORD.findall(text) if re.search(r"\d|[._+-]", w) and faulted(w, text)
    }


def _target(ledger: Ledger, revert: Fact, cues: Cues) -> Fact | None:
    """The change ``revert`` takes back (see the module), or ``None``."""
    earlier = [
        f
        for f in ledger.facts[-MAX_EARLIER:]
        if f.source != revert.source
        and f.kind in _KINDS
        and (f.live or f.replaced_by == revert.id)
        and f.source
    ]
    if not earlier:
        return None
    named = _named_values(revert.text, cues)
    for fact in reversed(earlier):  # "back to 30s": the change whose replaced fact said it
        if any(v in p.text for p in _priors(ledger, fact) for v in named):
            return fact
    wanting = _faulted_words(revert.text)
    for fact in reversed(earlier):  # "fp16 is a disaster, go back": the change that set it
        if wanting & set(_WORD.findall(fact.text.casefold())) and (
            _priors(ledger, fact) or fact.live
        ):
            return fact
    clause = _cue_clause(revert.text, cues)
    if _named_values(clause, cues):
        return None  # back to a value no change replaced: a change (:mod:`.supersede`)
    subject = _stems(_subject(clause, cues))
    if subject:
        rest = revert.text.replace(clause, " ")  # a value found wanting is the old one
        if any(v.cls != "name" and not faulted(v.text, rest) for v in values(rest, cues)):
            return None  # "Scratch that limit, 90 minutes is acceptable": a change
        for fact in reversed(earlier):
            said = words_of(fact.text).union(*(words_of(p.text) for p in _priors(ledger, fact)))
            changed = _priors(ledger, fact) or not fact.live or values(fact.text, cues)
            if subject & _stems(said) and changed:
                return fact
        return None  # a subject no change names: nothing to take back
    if any(f.replaced_by == revert.id for f in earlier):
        return None  # it changed a rule already ("Scratch that, 90 minutes is fine"): no take-back
    rules = [f for f in earlier if f.live and f.kind != "request"]
    if not deictic(revert.text, cues, rules):
        return None
    latest = earlier[-1].source
    changes = [f for f in earlier if f.source == latest]
    return next((f for f in reversed(changes) if _priors(ledger, f)), None) or changes[-1]


#: Words that set an old thing beside another, not bring it back: "confusing it with the old
#: one", "faster than the previous one", "different from the original one".
_COMPARED = re.compile(r"\b(?:with|from|than|like|vs\.?|versus)\s+$", re.IGNORECASE)


def _compared(text: str, cues: Cues) -> bool:
    """Whether the revert cue of ``text`` names the old thing only to compare with it."""
    span = cues.find("revert", text)
    return span is not None and _COMPARED.search(text[: span[0]]) is not None


def restore_reverted(ledger: Ledger, source: str, cues: Cues) -> None:
    """Take back the changes the facts of message ``source`` revert (see the module)."""
    if not source:
        return
    mine = [f for f in ledger.facts if f.source == source and f.live and f.kind in _KINDS]
    for revert in mine:
        if (
            not revert.live
            or not cues.has("revert", revert.text)
            or revert_faulted(revert.text, cues)
            or _compared(revert.text, cues)
        ):
            continue
        change = _target(ledger, revert, cues)
        if change is None:
            continue
        priors = _priors(ledger, change)
        back: Fact | None = None
        note = f'back in force: "{revert.text}"'
        for prior in priors:
            for text in _restored(ledger, prior):
                back = ledger.new_fact(prior.kind, text, source, note=note)
        if change.live:
            ledger.retire(change, back or revert)
        elif back is not None:
            change.replaced_by = back.id
            back.replaces.append(change.id)
        if back is not None:
            ledger.retire(revert, back)
        elif not priors and _faulted_words(revert.text):  # the goal's value is back: the
            ledger.retire(revert, None)  # sentence only said the change was wanting
        _retire_remarks(ledger, mine, change, priors, back or revert, cues)


def _restored(ledger: Ledger, prior: Fact) -> list[str]:
    """What of ``prior`` is back in force: the whole sentence, or — when the change retired
    one clause of it and kept the others as facts of their own — that clause only, verbatim
    (the kept clauses live, or were changed since, on their own)."""
    clauses = split_clauses(prior.text)
    kept = {normal(f.text) for f in ledger.facts if f is not prior and f.source == prior.source}
    left = [c for c in clauses if normal(c) not in kept]
    return left if 0 < len(left) < len(clauses) else [prior.text]


def _retire_remarks(
    ledger: Ledger, mine: list[Fact], change: Fact, priors: list[Fact], by: Fact, cues: Cues
) -> None:
    """Facts of the reverting message naming a value only ``change`` said, and the clauses of
    ``change`` kept live on their own (its reasons), retire with it."""
    kept = " ".join(p.text for p in priors)
    said = [v.text for v in values(change.text, cues) if v.cls != "name"]
    said += [m.group(0) for m in _VALUE_TOKEN.finditer(change.text)]
    gone = [value for value in said if value not in kept]
    for fact in mine:
        if fact.live and fact is not by and any(value in fact.text for value in gone):
            ledger.retire(fact, by)
    parts = {normal(c) for c in split_clauses(change.text)}
    for fact in ledger.facts:  # a clause of the change kept live ("we want http3")
        if fact.live and fact.source == change.source and normal(fact.text) in parts:
            ledger.retire(fact, by)


__all__ = ["deictic", "restore_reverted"]
