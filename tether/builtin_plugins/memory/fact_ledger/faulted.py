"""A value a sentence finds fault with is recalled, not set.

"02:00 was too early", "之前那个 retries=3 太少", "the 500 MB cap is too small, make it 2 GB":
the value is named to say why it goes. The words after it, to the end of its clause, find
fault (``criticism_words`` of ``vocabulary.json``: "too slow", 太少 — not "use Redis too"
or "不够再调", if it is not enough, adjust). A sentence whose every value is faulted sets none
of them; a value faulted is no value in force.
"""

from __future__ import annotations

import re
from typing import Protocol

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.identifiers import identifiers
from tether.builtin_plugins.memory.fact_ledger.implicit import values
from tether.builtin_plugins.memory.fact_ledger.words import word_search

CRITICISM = word_search("criticism_words")  # "too slow", 太少; not "use Redis too", 不够再调
#: Where the words about a value end: a stop, a comma, a dash, a joining word, a reason.
_CUT = re.compile(
    r"[,;!?，；。！？]|\.(?:\s|$)|\s[-—–]+\s"
    r"|\b(?:but|and|so|then|because|since|as|while|whereas)\b|因为|由于|但是|不过|而且",
    re.IGNORECASE,
)
#: A word that denies the fault after it: "isn't too high", "not too aggressive", "不太慢".
_NEGATOR = re.compile(
    r"\b(?:not|never|hardly|no longer)\b|n't\b|[不没](?:是|算|会)?$", re.IGNORECASE
)
#: Words that keep the value in force after all: "… but it's fine", "keep it", "别改".
_DEFENDED = re.compile(
    r"\b(?:(?:it's|it is|that's|is) (?:fine|ok|okay)|keep it|leave it|don't change)\b"
    r"|别改|不用改|保持不变",
    re.IGNORECASE,
)
#: Cues that make a sentence a change, whatever it finds fault with ("switch to X because
#: Y is too slow", "stop using Y as it is too slow", "去掉 Y 因为太慢了").
_CHANGES = ("change", "revoke", "discard")


def faulted_after(text: str, end: int, stop: int | None = None) -> bool:
    """Whether the words of ``text`` from ``end`` to the end of that clause (and before
    ``stop``, where the next value is said) find fault."""
    clause = _CUT.split(text[end:stop], maxsplit=1)[0]
    fault = CRITICISM.search(clause)
    if fault is None or _NEGATOR.search(clause[: fault.start()]):
        return False  # "lr=3e-4 isn't too high"
    return not defended(text[end:])  # "… was too high but it's fine, keep it"


#: What links a value to the fault found with it: "dt=1e-4 is too aggressive", "X 太慢".
_LINKED = re.compile(
    r"\s*(?:(?:is|are|was|were|'s|seems|looks|feels|got|has been)\b|[\u3400-\u9fff])", re.I
)
NEAR_FAULT = 25  # characters between a value and the fault found with it


def said_wanting(text: str, end: int) -> bool:
    """Whether the value of ``text`` ending at ``end`` is itself found wanting, said of it
    right after it ("lr=3e-4 is too high"), not of something later in its clause
    ("--retries=2 for the flaky API tests")."""
    if not _LINKED.match(text, end) or not faulted_after(text, end):
        return False
    fault = CRITICISM.search(text, end)
    return fault is not None and fault.start() - end <= NEAR_FAULT


def wanting(value: str, text: str) -> bool:
    """Whether ``text`` finds ``value`` itself wanting where it names it (:func:`said_wanting`)."""
    at = text.find(value)
    return at >= 0 and said_wanting(text, at + len(value))


def defended(text: str) -> bool:
    """Whether ``text`` keeps a value in force after all ("… but it's fine", "keep it")."""
    return _DEFENDED.search(text) is not None


def faulted(value: str, text: str) -> bool:
    """Whether ``text`` finds fault with ``value`` where it names it."""
    at = text.find(value)
    return at >= 0 and faulted_after(text, at + len(value))


def revert_faulted(text: str, cues: Cues) -> bool:
    """Whether the clause of the ``revert`` cue of ``text`` finds fault with what it names,
    up to the second value after the cue: "之前那个 retries=3 太少" and "the old one was too
    slow" recall the old value; "用回 3 个 worker 吧 8 个太多了" and "用回之前那个，新的太慢" bring
    it back (the fault is the other value's)."""
    span = cues.find("revert", text)
    if span is None:
        return False
    after = [s for s, _e in value_spans(text, cues) if s >= span[1]]
    return faulted_after(text, span[1], after[1] if len(after) > 1 else None)


def value_spans(text: str, cues: Cues) -> list[tuple[int, int]]:
    """Where ``text`` states values: by class, and identifiers ("retries=3") beside them."""
    spans = {(v.start, v.start + len(v.text)) for v in values(text, cues)}
    for token, _subject in identifiers(text):  # "retries=3": a value the classes leave out
        at = text.find(token)
        if at >= 0 and not any(a <= at < b for a, b in spans):
            spans.add((at, at + len(token)))
    return sorted(spans)


def only_faulted(text: str, cues: Cues) -> bool:
    """Whether ``text`` states values and finds fault with each of them, with no cue of a
    change and no revert but one whose own clause finds fault ("之前那个 02:00 太早了")."""
    if any(cues.has(kind, text) for kind in _CHANGES):
        return False
    if cues.has("revert", text) and not revert_faulted(text, cues):
        return False  # "go back to the previous one, X is too slow": a revert
    said = value_spans(text, cues)
    ends = [start for start, _end in said[1:]] + [len(text)]
    return bool(said) and all(
        faulted_after(text, end, stop) for (_start, end), stop in zip(said, ends, strict=True)
    )


def faults_first(text: str, cues: Cues) -> list[str]:
    """The values ``text`` finds fault with when the first value it states is one of them
    and it has no cue of a change ("50000 was too aggressive, … lag spiked to 40s": 50000;
    the 40s after it is what was seen); [] otherwise."""
    if any(cues.has(kind, text) for kind in (*_CHANGES, "revert")):
        return []
    said = value_spans(text, cues)
    if not said:
        return []
    ends = [start for start, _end in said[1:]] + [len(text)]
    faulted = [
        text[start:end]
        for (start, end), stop in zip(said, ends, strict=True)
        if faulted_after(text, end, stop)
    ]
    return faulted if faulted and text[said[0][0] : said[0][1]] == faulted[0] else []


def reports_fault(text: str, cues: Cues) -> bool:
    """Whether ``text`` finds fault with the first value it states and its other values are
    of other classes — what was seen, not a new value ("40000 was too much, … lag hit 55s"):
    it sets no value, as :func:`only_faulted`."""
    faulted = faults_first(text, cues)
    if not faulted:
        return False
    said = values(text, cues)
    wanting = {v.cls for v in said if v.text in faulted}
    return all(v.text in faulted or v.cls not in wanting for v in said)


class Ledger(Protocol):
    """What :func:`remarks_only` needs of :class:`~.ledger.Ledger`."""

    facts: list[Fact]

    def live(self, *kinds: str) -> list[Fact]: ...

    def retire(self, old: Fact, new: Fact | None, status: str = "retired") -> None: ...


def remarks_only(ledger: Ledger, remark: Fact, cues: Cues) -> bool:
    """Whether ``remark`` only finds fault with values it names (:func:`only_faulted`,
    :func:`reports_fault`): it sets none. When no live rule states them any more ("the 2m one
    still floods the audit log (the old 30s one was worse)", said beside "requeue every
    5m"), and the message that replaced the newest says it, it gives the reason for that
    change and retires with it; said later, it reports what still happens and stays."""
    if not (only_faulted(remark.text, cues) or reports_fault(remark.text, cues)):
        return False
    said = [remark.text[a:b] for a, b in value_spans(remark.text, cues)]
    rules = [f for f in ledger.live("constraint", "decision") if f is not remark]
    if any(value in rule.text for value in said for rule in rules):
        return True
    stated = [f for f in ledger.facts if f.replaced_by and any(v in f.text for v in said)]
    newest = next((f for f in ledger.facts if stated and f.id == stated[-1].replaced_by), None)
    if newest is not None and newest.source == remark.source and "?" not in remark.text:
        ledger.retire(remark, newest)  # said with the change: why it was made
    return True


__all__ = [
    "CRITICISM",
    "defended",
    "faulted",
    "faulted_after",
    "faults_first",
    "only_faulted",
    "reports_fault",
    "remarks_only",
    "revert_faulted",
    "said_wanting",
    "value_spans",
    "wanting",
]
