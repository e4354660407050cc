"""A change that switches to a new name also ends the clause that kept the old one.

"Keep the alignment on GRCh37 for now, and keep bowtie2." changed by "we'll align to GRCh38
… and switch to bwa-mem2": the numbered name changes one clause (:mod:`.renumbered`); the
other clause only keeps a name ("keep bowtie2") and the change switches to a name the rule
never said. That clause is changed too — when it is a verb and one product-like name (a
digit, a capital or a dash in it: "use cJSON", "keep bowtie2") that the change does not
name again, and the name switched to ends its phrase ("switch to the EU region" names a
region, no product that takes the kept one's place).
"""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.cues import Cues

#: A clause that only keeps or uses one name: a verb or two, then the name.
_KEEPS_NAME = re.compile(r"^(?:[A-Za-z']+\s+){1,2}([A-Za-z][\w.+-]*[\w+])$")
_NAME_SHAPE = re.compile(r"\d|[A-Z]|-")
_OBJECT = re.compile(r"\b(?:the|our|its|my|a|an)\s+(.+?)\s+(?:to|for|with)\s*$", re.I)
_AFTER_CUE = re.compile(r"\s*(?:the\s+|to\s+)?([A-Za-z][\w.+-]*[\w+])")
#: What may follow a name switched to: the end of its clause, or a word that closes it.
#: A noun after it ("switch to the EU region", "S3-backed state") makes it a modifier.
_NAME_ENDS = re.compile(r"\s*(?:$|[,.;:!?)]|(?:and|instead|now|too|then|for)\b)", re.IGNORECASE)


def _switched_to(new: str, old: str, cues: Cues) -> frozenset[str] | None:
    """The words of what ``new`` switches (``the formatter`` of "switch the formatter to
    X"; empty when the cue names none) when it switches to a name (right after a change cue)
    ``old`` does not say; None when it switches to none."""
    span = cues.find("change", new)
    while span is not None:
        named = _AFTER_CUE.match(new, span[1])
        if (
            named
            and _NAME_SHAPE.search(named.group(1))
            and named.group(1) not in old
            and _NAME_ENDS.match(new, named.end())
        ):
            thing = _OBJECT.search(new[span[0] : span[1]])
            return frozenset(thing.group(1).casefold().split()) if thing else frozenset()
        rest = cues.find("change", new[span[1] :])
        span = (span[1] + rest[0], span[1] + rest[1]) if rest else None
    return None


def name_kept_elsewhere(
    new: str, old: str, clauses: list[str], changed: list[bool], cues: Cues
) -> list[bool]:
    """``changed`` with the clauses that only keep a name ``new`` switches away from."""
    thing = None if not any(changed) or all(changed) else _switched_to(new, old, cues)
    if thing is None:
        return changed
    out = list(changed)
    for at, clause in enumerate(clauses):
        kept = _KEEPS_NAME.match(clause.strip())
        if out[at] or kept is None or not _NAME_SHAPE.search(kept.group(1)):
            continue
        if thing and not thing & set(clause.casefold().split()):
            continue  # "switch the formatter to X" leaves "keep ESLint" alone
        if kept.group(1).casefold() not in new.casefold():
            out[at] = True
    return out


__all__ = ["name_kept_elsewhere"]
