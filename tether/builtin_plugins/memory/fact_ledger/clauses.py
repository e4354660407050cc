"""A rule retired for one of its values keeps its other clauses live.

A user often states several values in one sentence ("it reads from wh-ro-2.corp:5433 and
writes to s3://fin-exports/daily/", "主库连接池 50，从库连接池 20", "Staging gets 4 GB, prod
16 GB"). When a later fact changes one of them, only the clause stating it is replaced: the
other clauses stay live as facts of their own, verbatim, with the identifiers they name —
but not a short remark that states nothing of its own and points back at the rule ("…, the
accountants like it", "…，他们习惯这样"): it retires with the rule. When no clause can be told
apart as the changed one (or every clause is), the whole rule retires.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Protocol

from tether.builtin_plugins.memory.fact_ledger.clausepick import (
    lost_its_subject,
    of_its_class,
    side_by_side,
)
from tether.builtin_plugins.memory.fact_ledger.concepts import parts_differ
from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.implicit import shape_change, values
from tether.builtin_plugins.memory.fact_ledger.keyvalue import same_key, values_said
from tether.builtin_plugins.memory.fact_ledger.moot import resolve_moot
from tether.builtin_plugins.memory.fact_ledger.named import NAME
from tether.builtin_plugins.memory.fact_ledger.oldremark import looks_back
from tether.builtin_plugins.memory.fact_ledger.renumbered import renumbered
from tether.builtin_plugins.memory.fact_ledger.slots import slots
from tether.builtin_plugins.memory.fact_ledger.subject import changed_pairs, relation
from tether.builtin_plugins.memory.fact_ledger.switched import name_kept_elsewhere
from tether.builtin_plugins.memory.fact_ledger.words import (
    STOP,
    WIDE,
    negated,
    vocabulary,
    words_of,
)

#: Where a sentence splits into clauses: commas, semicolons, "and"/"but", a dash, wide stops.
_SPLIT = re.compile(
    r"\s*(?:[,;]\s*(?:and\s+|but\s+|while\s+)?|\s+and\s+|\s+but\s+|\s+while\s+|\s[-—–]+\s"
    r"|[，；、。]|并且|而且)\s*"
)
_LABEL = re.compile(r"^[^:：]{1,30}[:：]\s")
MIN_CLAUSE_WORDS = 2  # ASCII words; a CJK clause needs 4 characters
MAX_REMARK_WORDS = 6  # a remark on the rule: this many ASCII words (or twice as many CJK)
_BACK = vocabulary("back_references")


class Ledger(Protocol):
    def live(self, *kinds: str) -> list[Fact]: ...

    def retire(self, old: Fact, new: Fact | None, status: str = "retired") -> None: ...

    def new_clause(self, parent: Fact, text: str, **extra: Any) -> Fact: ...

    @property
    def facts(self) -> list[Fact]: ...


def split_clauses(text: str) -> list[str]:
    """The clauses of ``text``, verbatim (trailing stops and spaces trimmed)."""
    out = []
    for piece in _SPLIT.split(text):
        piece = piece.strip(" .。!！")
        if piece:
            out.append(piece)
    return out


def _substantial(clause: str) -> bool:
    if WIDE.search(clause):
        return len(clause) >= 4
    return len(clause.split()) >= MIN_CLAUSE_WORDS and len(clause) >= 6


def _names_one(clause: str) -> bool:
    """Whether ``clause`` names a thing past its first word ("store them in SQLite")."""
    return any(found.start() > 0 for found in NAME.finditer(clause))


#: A clause telling how to have the thing ("keep it vanilla style", "make them lowercase").
_DIRECTIVE = re.compile(
    r"^\W*(?:(?:and|but|pls|please|just)\s+)*(?:keep|make|leave|have)\s+(?:it|them)\s+"
    r"(?!(?:like|that|this|as|so|the|same|alone|low|high|small|big|short|long|simple|fast"
    r"|slow|tight|loose)\b)[a-z][\w-]*\s+[a-z]",  # not "keep it that way", "keep it low"
    re.IGNORECASE,
)


def _remark(clause: str) -> bool:
    """A short clause with no value and no prohibition of its own that points back at the
    rule it stands in ("the accountants like it"): said of the old value only."""
    if values_said(clause) or negated(clause) or _names_one(clause.strip()):
        return False  # "store them in SQLite": a choice of its own
    if _DIRECTIVE.match(clause):
        return False  # "keep it vanilla style": a rule of its own on the same thing
    lower = clause.casefold()
    if WIDE.search(clause):
        return len(clause) <= 2 * MAX_REMARK_WORDS and any(w in clause for w in _BACK)
    words = re.findall(r"[a-z']+", lower)
    return len(words) <= MAX_REMARK_WORDS and bool(_BACK.intersection(words))


#: A setting of a flag or key: "--jobs=32", "--retries 3", "max_workers=8".
_SETTING_KEY = re.compile(r"(?<![\w-])-{0,2}([A-Za-z][\w-]*[A-Za-z])(?:=|\s+)\d")


def _ban_apart(new: str, clause: str) -> bool:
    """Whether ``clause`` bans something ``new`` (no ban itself) does not name: "不要引入
    Redis" stays beside "那就 cachetools 吧"."""
    if not negated(clause) or negated(new):
        return False
    return not (words_of(clause) - STOP) & words_of(new)


def _key_named(new: str, clause: str) -> bool:
    """Whether ``new`` changes, naming it as a word right after a verb of change, the key of
    a setting ``clause`` states ("bump jobs accordingly" for "Use --jobs=32"; not "leave
    retries alone")."""
    keys = {m.group(1).casefold() for m in _SETTING_KEY.finditer(clause) if "-" in m.group(0)[:1]}
    keys |= {m.group(1).casefold() for m in _SETTING_KEY.finditer(clause) if "=" in m.group(0)}
    return any(re.search(_CHANGED_KEY.format(re.escape(k)), new, re.IGNORECASE) for k in keys)


#: A verb of change right before the key it changes: "bump jobs", "raise the workers".
_CHANGED_KEY = (
    r"\b(?:bump|raise|lower|increase|decrease|reduce|set|change|adjust|scale|double|halve)"
    r"\s+(?:the\s+)?(?<![\w-]){}\b"
)


def about(new: str, clause: str, cues: Cues | None, *, revoke: bool = False) -> bool:
    """Whether ``new`` changes (or, ``revoke``, ends) what ``clause`` states."""
    if revoke:
        mine = {w for w in words_of(new) if len(w) > 2 and w not in STOP}
        return bool(mine & words_of(clause))
    if cues is not None and parts_differ(new, clause, cues.concepts):
        return False
    if relation(new, clause, cues) or renumbered(new, clause):
        return True
    if any(o.key and o.key == n.key for o, n in changed_pairs(new, clause)):
        return True
    if cues is not None and shape_change(new, clause, cues, cued=True):
        return True
    return same_key(new, clause, cues)


def _nearest(new: str, clauses: list[str]) -> list[bool]:
    """Of clauses that are all about ``new``'s subject, those naming most of its own words
    ("1s on the products index" for "products index refresh 5s", not "30s on the logs
    index"): the words every clause has, or a label before them all, say nothing about which."""
    said = [words_of(c) for c in clauses]
    label = _LABEL.match(clauses[0])  # "index refresh: 30s on logs, 1s on products"
    common = set.intersection(*said) | (words_of(label.group(0)) if label else set())
    mine = words_of(new)
    scores = [len((words - common) & mine) for words in said]
    best = max(scores)
    if not best:
        return [True] * len(clauses)
    units = _units(new)  # a tie: the clause with a quantity of new's unit ("28 天" for "21 天")
    tied = [
        score == best and bool(units & _units(c)) for score, c in zip(scores, clauses, strict=True)
    ]
    return tied if scores.count(best) > 1 and sum(tied) == 1 else [s == best for s in scores]


def _units(text: str) -> set[str]:
    return {slot.shape for slot in slots(text) if slot.shape.startswith("qty:")}


def retire_rule(
    ledger: Ledger,
    old: Fact,
    new: Fact,
    cues: Cues | None,
    *,
    revoke: bool = False,
    changes: Callable[[str], bool] | None = None,
) -> None:
    """Retire ``old`` for ``new``; clauses of ``old`` that ``new`` is not about (or, given
    ``changes``, that it does not pick) stay live."""
    clauses = split_clauses(old.text) if old.kind in ("constraint", "decision") else []
    kept: list[str] = []
    if len(clauses) > 1 and changes is not None:
        kept = [c for c in clauses if not changes(c) and _substantial(c) and not _remark(c)]
        kept = kept if len(kept) < len(clauses) else []
    elif len(clauses) > 1:
        changed = [  # a revoke giving another value changes that value's clause too
            about(new.text, c, cues, revoke=revoke) or (revoke and about(new.text, c, cues))
            for c in clauses
        ]
        if all(changed) or not any(changed):  # the words tell which clause it changes
            changed = _nearest(new.text, clauses)
        changed = [hit or _key_named(new.text, c) for c, hit in zip(clauses, changed, strict=True)]
        changed = [
            hit and not _ban_apart(new.text, c) for c, hit in zip(clauses, changed, strict=True)
        ]
        changed = _with_value(new.text, clauses, changed, cues)
        changed = of_its_class(new.text, clauses, changed, cues)
        if cues is not None:  # "…, and keep bowtie2" after "switch to bwa-mem2"
            changed = name_kept_elsewhere(new.text, old.text, clauses, changed, cues)
        if any(changed) and not all(changed):
            kept = [c for c, hit in zip(clauses, changed, strict=True) if not hit]
            kept = [c for c in kept if _substantial(c) and not _remark(c)]
    kept = [
        c
        for c in kept
        if not looks_back(ledger, c, old) and not lost_its_subject(c, clauses, kept, new.text, cues)
    ]
    facts = []
    for clause in side_by_side(old.text, clauses, kept) if WIDE.search(old.text) else kept:
        facts.append(ledger.new_clause(old, clause, note=old.note))
    ledger.retire(old, new)
    resolve_moot(ledger, old, new, cues)
    for child in ledger.live("identifier"):
        if child.parent == old.id:
            home = next((f for f in facts if child.text in f.text), None)
            if home is not None:
                child.parent = home.id


def _with_value(new: str, clauses: list[str], changed: list[bool], cues: Cues | None) -> list[bool]:
    """A change is of a value: when the clauses judged changed state none ("the batch export
    endpoint needs it" beside "bump the read timeout to 120s"), they are remarks on the value,
    and the clauses stating one that ``new`` names a word of change with them. When those
    are only reasons ("先用 attoparsec，因为 repo 里别的 module 已经 depend 它了" matched by "换成
    megaparsec，别的 module 以后再说") and ``new`` brings a value none says, the clauses holding
    a value it does not say change too (never a ban: "不要引入 Redis")."""
    if any(hit and values_said(c) for c, hit in zip(clauses, changed, strict=True)):
        return changed
    mine = {w for w in words_of(new) if w not in STOP}
    out = [
        hit or bool(values_said(c) and mine & words_of(c))
        for c, hit in zip(clauses, changed, strict=True)
    ]
    reasons = [c for c, hit in zip(clauses, changed, strict=True) if hit]
    if cues is None or not reasons or not all(_REASON.match(c) for c in reasons):
        return out
    if all(v.text in " ".join(clauses) for v in values(new, cues)):
        return out
    return [
        hit or (not negated(c) and any(v.text not in new for v in values(c, cues)))
        for c, hit in zip(clauses, out, strict=True)
    ]


_REASON = re.compile(r"^\W*(?:因为|由于|because|since|as)\b", re.IGNORECASE)  # a reason clause


@lru_cache(maxsize=1024)
def _pattern(value: str) -> re.Pattern[str]:
    """``value`` as a whole token; a CJK character beside it is no part of it ("低于40%就")."""
    return re.compile(
        r"(?<![A-Za-z0-9_.-])" + re.escape(value) + r"(?![A-Za-z0-9_-]|\.\w)", re.IGNORECASE
    )


def _names(value: str, text: str) -> bool:
    return value.casefold() in text.casefold() and _pattern(value).search(text) is not None


def echoes(text: str, old: str, new: str) -> bool:
    """Whether ``text`` only repeats values ``old`` stated and ``new`` replaced ("5000 rows
    was too much for the lambda." said beside "2000 rows each."): a remark on the old value."""
    said = values_said(text)
    return bool(said) and all(_names(v, old) and not _names(v, new) for v in said)


def _orphans(ledger: Ledger, gone: list[Fact]) -> None:
    """Identifiers of retired facts that no live fact says any more retire too."""
    ids = {f.id for f in gone}
    said = " ".join(f.text for f in ledger.live() if f.kind not in ("identifier", "said"))
    for child in ledger.live("identifier"):
        if child.parent in ids and child.text not in said:
            ledger.retire(child, None)


_STAYS = re.compile(r"[,;，；]\s*(?:but\s+)?only\b|[，；]\s*(?:只|仅)")


def names_new(text: str, old: list[Fact], cues: Cues | None, *, cued: bool = True) -> bool:
    """Whether ``text`` names what replaces the values of ``old``, not only remarks on them:
    it says what it replaces ("switch to nanopb instead of cJSON", "用 Y 而不是 X"), however
    the new value is written, or (``cued``: a change) a clause of it with a change cue names
    words no fact of ``old`` says ("不再用 X，改用 Y", "no more X, use Y instead")."""
    if cues is None:
        return False
    if cues.has("replaces", text) or _STAYS.search(text):
        return True  # "…, only for the APIs": what stays is news too
    if not cued:
        return False
    said = set().union(*(words_of(f.text) for f in old)) if old else set()
    said |= _BACK | cues.words("change") | cues.words("select")
    for clause in split_clauses(text):
        span = cues.find("change", clause)
        if span is not None and words_of(clause[: span[0]] + " " + clause[span[1] :]) - said:
            return True
    return False


def retire_echoes(ledger: Ledger, fact: Fact, retired: list[Fact], *, new: bool = False) -> bool:
    """Rules of ``fact``'s own message that only remark on a value it just replaced retire
    with it; ``fact`` itself retires when it only names the values it ended (unless ``new``:
    it names what replaces them), or only remarks on a value another sentence of its message
    replaced (True then)."""
    if not fact.source:
        return False
    rules = ledger.live("constraint") + ledger.live("decision")
    mine = [f for f in rules if f.source == fact.source]
    for old in retired:
        for other in mine:
            if other is not fact and other.live and echoes(other.text, old.text, fact.text):
                ledger.retire(other, fact)
    if retired:
        if not new and any(echoes(fact.text, old.text, "") for old in retired):
            ledger.retire(fact, None)  # "5000 rows was too much": it ends the old value only
            _orphans(ledger, [*retired, fact])
            return True
        return False
    for other in mine:
        if other is fact:
            continue
        for old_id in other.replaces:
            old = next((f for f in ledger.facts if f.id == old_id), None)
            if old is not None and echoes(fact.text, old.text, other.text):
                ledger.retire(fact, other)
                return True
    return False


__all__ = ["about", "echoes", "names_new", "retire_echoes", "retire_rule", "split_clauses"]
