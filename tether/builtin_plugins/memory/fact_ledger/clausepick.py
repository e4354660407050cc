"""Which clauses of a changed rule a change ends, and how the others are kept.

:func:`~.clauses.retire_rule` splits a rule a change retires into clauses and keeps those the
change is not about. Three readings of that split live here: a new value of a class (a host,
a port) ends the one clause stating one (:func:`of_its_class`); a clause giving "it" a value
goes with the clause it points at (:func:`lost_its_subject`); and the kept clauses of a
Chinese rule that sit side by side stay one fact (:func:`side_by_side`).
"""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.identifiers import identifier_spans
from tether.builtin_plugins.memory.fact_ledger.implicit import values
from tether.builtin_plugins.memory.fact_ledger.words import CLAUSES

_LOOSE_CLASSES = frozenset({"name", "num"})  # too common to say which clause a value is of


def of_its_class(
    new: str, clauses: list[str], changed: list[bool], cues: Cues | None
) -> list[bool]:
    """A new value of a class (a host, a port, a size) changes the one clause stating
    another value of that class, whatever words name it ("网关换成 192.168.1.60" changes
    "地址是 192.168.1.50" beside "…挂了一个 RS485 网关", not only the clause naming the gateway)."""
    if cues is None or len(list(identifier_spans(new))) > 1:
        return changed  # several identifiers: which clause each is of, only words tell
    if any(
        hit and any(v.cls not in _LOOSE_CLASSES for v in values(c, cues))
        for c, hit in zip(clauses, changed, strict=True)
    ):
        return changed  # the clause judged changed holds the value: "API on api-1, port 9100"
    said = " ".join(clauses)
    start, end = cues.cue_span(new, ("change",))
    own = CLAUSES.split(new[start:end], maxsplit=1)[0]
    brought = {  # of the clause of the change cue: not "…换成 PostgreSQL，连接池空闲 60 秒回收"
        v.cls for v in values(own, cues) if v.cls not in _LOOSE_CLASSES and v.text not in said
    }
    out = list(changed)
    for cls in brought:
        holding = [i for i, c in enumerate(clauses) if any(v.cls == cls for v in values(c, cues))]
        if len(holding) == 1:
            out[holding[0]] = True
    return out


#: A value given to "it" ("move it to 23:00"): its subject is in the clause beside it, so it
#: goes when that clause goes ("the 22:00 run overlaps the backup, move it to 23:00").
_OF_IT = re.compile(
    r"^\W*(?:(?:and|but|so|then|just|pls|please)\s+)*(?:move|make|set|bump|change|push|put"
    r"|switch|raise|lower|cut|shift)\s+(?:it|that|this|them)\s+(?:to|at|down to|up to)?\s*\d",
    re.IGNORECASE,
)


def lost_its_subject(
    clause: str, clauses: list[str], kept: list[str], new: str, cues: Cues | None
) -> bool:
    """Whether ``clause`` gives "it" a value and the clause before it, which it points at,
    goes ("the 22:00 run overlaps the backup, move it to 23:00"); one after a clause that
    is kept stays, and so does one whose value is of another class than the change's
    ("export at 01:00, bump it to 4 workers" when only the time changes)."""
    if cues is None or not _OF_IT.match(clause) or clause not in clauses:
        return False
    at = clauses.index(clause)
    if at == 0 or clauses[at - 1] in kept:
        return False
    mine = {v.cls for v in values(clause, cues)}  # "move it to 23:00" when 23:45 replaces it,
    return bool(mine & {v.cls for v in values(new, cues)})  # not "bump it to 4 workers"


def side_by_side(text: str, clauses: list[str], kept: list[str]) -> list[str]:
    """``kept`` (of ``text``'s ``clauses``), those side by side joined again as ``text`` has
    them: a Chinese rule runs over clauses cut by "，" ("先按金额精确匹配，金额相同的再按摘要
    模糊匹配") and stays whole when a change ends only another clause of its sentence."""
    spans, at = [], 0
    for clause in clauses:
        start = text.find(clause, at)
        if start < 0:
            return kept
        spans.append((start, start + len(clause)))
        at = start + len(clause)
    wanted, runs = set(kept), []
    for index, clause in enumerate(clauses):
        if clause not in wanted:
            continue
        if runs and runs[-1][1] == index - 1:
            runs[-1][1] = index
        else:
            runs.append([index, index])
    return [text[spans[first][0] : spans[last][1]] for first, last in runs]


__all__ = ["lost_its_subject", "of_its_class", "side_by_side"]
