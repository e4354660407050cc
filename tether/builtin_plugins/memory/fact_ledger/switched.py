"""A change that switches to a new name also ends the clause that kept the old one.

"Keep the alignment on GRCh37 for now, and keep bowtie2." changed by "we'll align to GRCh38
… and switch to bwa-mem2": the numbered name changes one clause (:mod:`.renumbered`); the
other clause only keeps a name ("keep bowtie2") and the change switches to a name the rule
never said. That clause is changed too — when it is a verb and one product-like name (a
digit, a capital or a dash in it: "use cJSON", "keep bowtie2") that the change does not
name again.
"""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.cues import Cues

#: A clause that only keeps or uses one name: a verb or two, then the name.
_KEEPS_NAME = re.compile(r"^(?:[A-Za-z']+\s+){1,2}([A-Za-z][\w.+-]*[\w+])$")
_NAME_SHAPE = re.compile(r"\d|[A-Z]|-")
_AFTER_CUE = re.compile(r"\s*(?:the\s+|to\s+)?([A-Za-z][\w.+-]*[\w+])")


def _switched_to(new: str, old: str, cues: Cues) -> bool:
    """Whether ``new`` switches to a name (right after a change cue) ``old`` does not say."""
    span = cues.find("change", new)
    while span is not None:
        named = _AFTER_CUE.match(new, span[1])
        if named and _NAME_SHAPE.search(named.group(1)) and named.group(1) not in old:
            return True
        rest = cues.find("change", new[span[1] :])
        span = (span[1] + rest[0], span[1] + rest[1]) if rest else None
    return False


def name_kept_elsewhere(
    new: str, old: str, clauses: list[str], changed: list[bool], cues: Cues
) -> list[bool]:
    """``changed`` with the clauses that only keep a name ``new`` switches away from."""
    if not any(changed) or all(changed) or not _switched_to(new, old, cues):
        return changed
    out = list(changed)
    for at, clause in enumerate(clauses):
        kept = _KEEPS_NAME.match(clause.strip())
        if out[at] or kept is None or not _NAME_SHAPE.search(kept.group(1)):
            continue
        if kept.group(1).casefold() not in new.casefold():
            out[at] = True
    return out


__all__ = ["name_kept_elsewhere"]
