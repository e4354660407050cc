"""Change notes for a live fact that still quotes an old value: "(--offline revoked, no
longer in use)", "(db-1 changed to db-3)", and for the goal "HG19" → "HG38" (a value of one
stem, or one name's version, given again later: ``FOO 2.7.10a`` → ``FOO 2.7.11b``).

A fact stays verbatim; the note, rendered and restored with it, tells the model which of its
values no longer hold — the goal's changed values too, wherever else they are quoted (an open
error's command on the old path)."""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from typing import Protocol

from tether.builtin_plugins.memory.fact_ledger.cues import default_cues
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.words import CLAUSES, STOP, WIDE


class Ledger(Protocol):
    """What the notes read of :class:`~.ledger.Ledger` (which imports this module)."""

    facts: list[Fact]

    def live(self, *kinds: str) -> list[Fact]: ...

    def get(self, fact_id: str) -> Fact | None: ...

    def goal(self) -> Fact | None: ...

    def goal_changes(self) -> dict[str, str]: ...


REVOKED = "revoked"  # the note of an identifier taken back with nothing in its place
#: "HG19", "RHEL8", "GRCh37": letters, then a digit (the stem is the letters)
_STEMMED = re.compile(r"(?<![\w.-])([A-Za-z]{2,}[A-Za-z_-]*?)(\d[\w.]*)(?![\w-])")
#: "FOO 2.7.10a", "Node v18.2": a name and a dotted version
_VERSIONED = re.compile(
    r"(?<![\w.-])([A-Za-z][\w+-]*)\s+(v?\d+(?:\.\d+)+[A-Za-z]?\w*)(?![\w.-]|\.\d)"
)
_RULES = frozenset({"constraint", "decision"})
#: A goal value distinctive enough to tell in other text (not a bare number: "300").
_DISTINCT = re.compile(r"[^\d.,\s]\S*\d|\d\S*[^\d.,\s]|[A-Za-z/]{4,}")
_NOT_NAMES = frozenset("to at is on from of v version and or the a an use with in by".split())


def revisions(ledger: Ledger, text: str) -> dict[str, str]:
    """What happened to each identifier ``text`` quotes that was later revoked or replaced
    by another identifier: ``{"--offline": "--offline revoked, no longer in use"}``."""
    notes: dict[str, str] = {}
    live = {f.text for f in ledger.live("identifier")}
    for fact in ledger.facts:
        if fact.kind != "identifier" or fact.live or fact.text in live or fact.text in notes:
            continue
        if fact.text not in text:
            continue
        if fact.note == REVOKED:
            notes[fact.text] = f"{fact.text} revoked, no longer in use"
            continue
        new = ledger.get(fact.replaced_by) if fact.replaced_by else None
        if new is not None and new.kind != "identifier" and fact.text in new.text:
            named = [f for f in ledger.facts if f.parent == new.id and f.kind == "identifier"]
            new = named[0] if len(named) == 1 else None  # "… to /mnt/x instead of /srv/x"
        if new is not None and new.kind == "identifier" and new.text not in text:
            notes[fact.text] = f"{fact.text} changed to {new.text}"
    goal = ledger.goal()
    if goal is not None and text != goal.text:
        for old, new_value in ledger.goal_changes().items():
            if _DISTINCT.search(old) and _quoted(old, text) and not _quoted(new_value, text):
                if not any(old in said for said in notes):
                    notes[old] = f"{old} changed to {new_value}"
    return notes


def _quoted(value: str, text: str) -> bool:
    """``value`` in ``text`` as a whole token (no letter or digit goes on at either edge)."""
    head = r"(?<![A-Za-z0-9_])" if value[:1].isalnum() else ""
    tail = r"(?![A-Za-z0-9_])" if value[-1:].isalnum() else ""
    return re.search(head + re.escape(value) + tail, text) is not None


def revision_note(ledger: Ledger, text: str) -> str:
    """:func:`revisions` as one note ("" if none)."""
    return "; ".join(revisions(ledger, text).values())


def fact_note(ledger: Ledger, fact: Fact) -> str:
    """The note a live fact is shown with: :func:`revision_note`, what a take-back ends
    (:func:`taken_back`: "no longer: modo oscuro"), and for a rule stated in the opening
    message (beside the goal) the values later facts gave another value of
    (:func:`retold_pairs`: "RHEL8 changed to RHEL9")."""
    notes = revisions(ledger, fact.text)
    for ended in taken_back(ledger, fact):
        if not any(ended in note for note in notes.values()):
            notes.setdefault(ended, f"no longer: {ended}")
    goal = ledger.goal()
    if goal is not None and fact.source == goal.source and fact.kind != "goal":
        later = ledger.facts[ledger.facts.index(fact) + 1 :]
        for other in later:
            if other.live and other.kind in _RULES and other.source != fact.source:
                for old, new in retold_pairs(other.text, fact.text):
                    notes.setdefault(old, f"{old} changed to {new}")
    return "; ".join(notes.values())


def change_notes(changes: dict[str, str], text: str) -> str:
    """``"4.2" changed to "5.0"`` for each change of a value ``text`` quotes, the value with
    the sign ``text`` writes before it ("#sre-handover", a channel; "@alice", a handle)."""
    return "; ".join(
        '"{}" changed to "{}"'.format(*_signed(o, n, text)) for o, n in changes.items()
    )


def _signed(old: str, new: str, text: str) -> tuple[str, str]:
    for sign in "#@$":
        if not old.startswith(sign) and f"{sign}{old}" in text:
            return sign + old, new if new.startswith(sign) else sign + new
    return old, new


MIN_RUN = 4  # characters of a shared run in a script with spaces (2 in one without)


def taken_back(ledger: Ledger, fact: Fact) -> list[str]:
    """What a live take-back ends, in the words its take-back clauses share with each rule
    it retired ("olvidate del modo oscuro" after "…, con modo oscuro": "modo oscuro"; not
    "session cache" of "forget Redis, use Memcached for the session cache"), so the summary
    says in one form, whatever the user's language, which value no longer holds."""
    cues = default_cues()  # compiled once
    if fact.kind not in _RULES or not fact.replaces or not cues.has("revoke", fact.text):
        return []
    taking = [c for c in CLAUSES.split(fact.text) if c and cues.has("revoke", c)]
    out: list[str] = []
    for old_id in fact.replaces:
        old = ledger.get(old_id)
        if old is None or old.kind not in _RULES:
            continue
        runs = [shared_run(clause, old.text) for clause in taking]  # not what stays
        run = max(runs, key=len, default="")  # ("forget Redis, use X for the session cache")
        if run and run not in out:
            out.append(run)
    return out


def _lower(text: str) -> str:
    return "".join(ch.lower() if len(ch.lower()) == 1 else ch for ch in text)  # same length


def shared_run(new: str, old: str) -> str:
    """The longest run of ``new`` that ``old`` says too, cut to whole words and without the
    function words at its edges ("" when it is too short to name anything)."""
    found = SequenceMatcher(None, _lower(new), _lower(old), autojunk=False).find_longest_match(
        0, len(new), 0, len(old)
    )
    start, end = found.a, found.a + found.size
    if not WIDE.search(new[start:end]):  # whole words only: no "ing" of "staging"
        while start < end and start > 0 and new[start - 1].isalnum():
            start += 1
        while end > start and end < len(new) and new[end].isalnum():
            end -= 1
    words = new[start:end].strip(" ,.;:!?()\"'，。；：！？").split(" ")
    while words and words[0].casefold() in STOP:
        words.pop(0)
    while words and words[-1].casefold() in STOP:
        words.pop()
    run = " ".join(words)
    return run if len(run) >= (2 if WIDE.search(run) else MIN_RUN) else ""


def _values(text: str) -> dict[tuple[str, str], str]:
    """Stemmed and versioned values of ``text`` by (shape, stem or name)."""
    out: dict[tuple[str, str], str] = {}
    for match in _VERSIONED.finditer(text):
        name = match.group(1)
        if name.casefold() not in _NOT_NAMES:
            out.setdefault(("version", name.casefold()), match.group(0).rstrip("."))
    for match in _STEMMED.finditer(text):
        if not any(match.group(0) in v for v in out.values()):
            out.setdefault(("stem", match.group(1).casefold()), match.group(0).rstrip("."))
    return out


def retold_pairs(new: str, old: str) -> list[tuple[str, str]]:
    """``(old value, new value)``: a value of ``old`` whose stem or name ``new`` gives with
    another value ("reference is HG19" / "switch to HG38"), unless ``new`` still says the
    old one too."""
    mine = _values(new)
    out = []
    for key, value in _values(old).items():
        other = mine.get(key)
        if other is not None and other.casefold() != value.casefold() and value not in new:
            out.append((value, other))
    return out


__all__ = [
    "REVOKED",
    "change_notes",
    "fact_note",
    "retold_pairs",
    "revision_note",
    "revisions",
    "shared_run",
    "taken_back",
]
