"""Identifiers the user takes back: "we don't need the sidecar anymore, s3://metrics-archive is
getting deleted. remove it.", "you can drop --offline from now on", "备份桶不再需要了
oss://bi-old 删掉".

A sentence with a ``revoke`` or ``discard`` cue (remove, drop, take out, getting deleted, no
longer need, 去掉, 删掉, 不需要…) that names an identifier said in an earlier message retires
that identifier (``note`` "revoked": nothing replaced it) and the earlier sentences stating it;
a short follow-up that only points back ("remove it.", "去掉吧") revokes the identifiers of the
sentence before it. File paths and ticket ids are left alone: deleting a file or closing a
ticket does not take back a setting. A one-dash flag ("take the -auto-approve out", "kill
-ffast-math") is taken back from the rules and commands quoting it, and told as revoked
wherever it is still quoted. :func:`~.notes.revision_note` tells a live fact that still
quotes a revoked or changed identifier what happened to it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.extract import Statement
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.identifiers import identifier_spans
from tether.builtin_plugins.memory.fact_ledger.ledger import Ledger
from tether.builtin_plugins.memory.fact_ledger.negation import denied
from tether.builtin_plugins.memory.fact_ledger.notes import REVOKED

_KEPT_SHAPES = frozenset({"path", "ticket"})
_POINTS_BACK = re.compile(r"\b(?:it|that|them|those|this)\b|[它这那]", re.IGNORECASE)
MAX_POINTER = 40  # characters: "remove it.", "take that out", "去掉吧"
_CLAUSE = re.compile(r"\s*(?:[,;]\s*(?:and\s+|but\s+)?|\s+and\s+|\s+but\s+|[，；、])\s*")


NEAR = 30  # characters between a cue and the identifier it takes back
MAX_OBJECT_GAP = 6  # characters between a cue and the flag it names ("drop the --plot")


def _cue_spans(sentence: str, cues: Cues) -> list[tuple[int, int]]:
    """Where ``sentence`` takes something back (a cue not negated: "don't drop X" keeps X)."""
    out = []
    for kind in ("revoke", "discard"):
        span = cues.find(kind, sentence)
        if span is not None and not denied(sentence, span[0]):
            out.append(span)
    return out


#: A compiler or tool flag of one dash ("-ffast-math", "-auto-approve", "-O2").
_SHORT_FLAG = re.compile(r"(?<![\w-])-[A-Za-z][\w-]*[\w](?:=[^\s,;]+)?")


def _named(sentence: str, near: list[tuple[int, int]] | None = None) -> list[str]:
    """The identifiers of ``sentence`` that a revocation can take back (with ``near``: only
    those next to one of those cue spans — "delete the cache of numpy==1.26.4" keeps the pin,
    "drop --offline" and "s3://x is getting deleted" do not), and the one-dash flags in or
    beside them ("take the -auto-approve out", "kill -ffast-math")."""
    out = []
    spans = [(a, b, kind) for a, b, kind, _subject in identifier_spans(sentence)]
    spans += [(m.start(), m.end(), "flag") for m in _SHORT_FLAG.finditer(sentence)]
    for start, end, kind in spans:
        if kind in _KEPT_SHAPES:
            continue
        if near is None or any(a - NEAR <= end and start <= b + NEAR for a, b in near):
            if sentence[start:end] not in out:
                out.append(sentence[start:end])
    return out


def _cue_clause(sentence: str, span: tuple[int, int]) -> str:
    """The clause of ``sentence`` holding the cue at ``span``: "drop that" of "drop that, schema
    validation should no longer be skipped."."""
    start = 0
    for cut in _CLAUSE.finditer(sentence):
        if cut.start() >= span[1]:
            return sentence[start : cut.start()]
        start = cut.end()
    return sentence[start:]


def _points_back(sentence: str, spans: list[tuple[int, int]]) -> bool:
    """``sentence`` is a short taking back that points at what was said before ("remove
    it.", "去掉吧"), or opens with one ("drop that, schema validation should stay on" — not
    "the debug banner, remove it": that names what goes)."""
    if len(sentence) <= MAX_POINTER:
        return bool(_POINTS_BACK.search(sentence)) or not sentence.isascii()
    if not sentence.isascii():
        return False
    for span in spans:
        clause = _cue_clause(sentence, span)
        opening = sentence.find(clause) <= 0 or not sentence[: sentence.find(clause)].strip(" ,")
        if opening and len(clause) <= MAX_POINTER and _POINTS_BACK.search(clause):
            return True
    return False


def revoked_names(
    statements: Sequence[Statement], cues: Cues
) -> list[tuple[Statement, str, Statement | None]]:
    """``(revoking sentence, identifier, the sentence it points back at or None)`` for each
    identifier a message takes back."""
    out: list[tuple[Statement, str, Statement | None]] = []
    said = [s for s in statements if s.kind != "identifier"]
    for index, statement in enumerate(said):
        spans = _cue_spans(statement.text, cues)
        if not spans:
            continue
        if not _named(statement.text) and index > 0 and _points_back(statement.text, spans):
            before = said[index - 1]
            out += [(statement, name, before) for name in _named(before.text)]
        else:
            out += [(statement, name, None) for name in _named(statement.text, spans)]
    return out


def _names(identifier: str, name: str) -> bool:
    """``identifier`` is ``name``, or a command line that passes it ("gradle with --offline"
    names ``--offline``: taking the flag back takes back that way of running it)."""
    if identifier == name:
        return True
    edge = r"(?<![\w./-])" + re.escape(name) + r"(?![\w./-])"
    return " " in identifier and re.search(edge, identifier) is not None


def _token(name: str, text: str) -> bool:
    return re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", text) is not None


def _said_before(ledger: Ledger, name: str, source: str) -> bool:
    """An earlier message's rule, request or step quotes ``name`` (one this message has just
    retired too: "we run plans with -parallelism=2" / "drop -parallelism=2"), or a failed call
    passed it."""
    for fact in ledger.facts:
        if fact.source == source or fact.kind == "identifier":
            continue
        if fact.kind == "error":
            if _token(name, fact.note):
                return True
            continue
        by = ledger.get(fact.replaced_by) if fact.replaced_by else None
        if (fact.live or (by is not None and by.source == source)) and _token(name, fact.text):
            return True
    return False


def _wanted_then_dropped(sentence: str, name: str, cues: Cues) -> bool:
    """``sentence`` names ``name`` before its cue and again after it: "I was going to want a
    --plot flag on the CLI but drop the --plot flag"."""
    spans = _cue_spans(sentence, cues)
    first = sentence.find(name)
    if not spans or not 0 <= first < spans[0][0]:
        return False
    after = sentence.find(name, spans[0][1])  # right after the cue: "drop the --plot flag"
    return 0 <= after - spans[0][1] <= MAX_OBJECT_GAP and not _named(sentence[spans[0][1] : after])


def _live_fact(ledger: Ledger, statement: Statement) -> Fact | None:
    return next(
        (f for f in reversed(ledger.live()) if f.text == statement.text and f.kind != "identifier"),
        None,
    )


def revoke_named(ledger: Ledger, statements: Sequence[Statement], source: str, cues: Cues) -> None:
    """Retire the identifiers (and the earlier sentences stating them) that ``statements``
    (one user message, entry ``source``) take back."""
    for statement, name, pointed in revoked_names(statements, cues):
        named = [f for f in ledger.facts if f.kind == "identifier" and _names(f.text, name)]
        if (
            not any(f.first_seen and f.first_seen != source for f in named)
            and not _said_before(ledger, name, source)
            and not _wanted_then_dropped(statement.text, name, cues)
        ):
            continue  # said for the first time here: nothing to take back
        by = _live_fact(ledger, statement)
        for fact in named:
            if fact.first_seen == source and fact.text != name and name in statement.text:
                if fact.live and fact.text in statement.text:
                    ledger.retire(fact, by)  # "kill -ffast-math": the taking back, no value
                    fact.note = REVOKED
                continue
            replacement = ledger.get(fact.replaced_by) if fact.replaced_by else None
            if fact.live:
                ledger.retire(fact, by)
            elif replacement is not None and replacement.kind == "identifier":
                continue  # changed to another value before: that one is the news
            fact.note = REVOKED
        for fact in ledger.live("constraint", "decision", "request", "next_step"):
            earlier = fact.source != source or (pointed is not None and fact.text == pointed.text)
            if fact is not by and earlier and name in fact.text:
                retire_keeping_clauses(ledger, fact, by, name)
        if not any(f.text == name for f in named):  # "-prune" of `kubectl apply -prune`:
            bare = ledger.new_fact("identifier", name, source)  # quoted anywhere, it is
            ledger.retire(bare, by)  # told as revoked
            bare.note = REVOKED


def retire_keeping_clauses(ledger: Ledger, fact: Fact, by: Fact | None, name: str) -> None:
    """Retire ``fact``; its clauses that do not name ``name`` stay live on their own."""
    ledger.retire(fact, by)
    if fact.kind not in ("constraint", "decision"):
        return  # a request or step that named it is done with
    for clause in _CLAUSE.split(fact.text):
        clause = clause.strip(" .")
        if clause == fact.text.strip(" .。") or name.casefold() in clause.casefold():
            continue
        if len(clause.split()) >= 3:
            ledger.new_clause(fact, clause)


__all__ = ["retire_keeping_clauses", "revoke_named", "revoked_names"]
