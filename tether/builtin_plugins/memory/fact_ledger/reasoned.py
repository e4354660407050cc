"""A replacement said after its reason: "v2.3.4 has the migration bug, go v2.4.0-rc2",
"m6i.large is still tight on memory, c6i.xlarge is cheaper, use that" (:func:`reasoned`)."""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.concepts import parts_differ
from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.keyshape import _comparable, _said, keyed_values

#: A word that picks what follows it: "use X", "go with X", "先用 X", "改用 X".
_PICK = re.compile(
    r"\b(?:use|using|go with|switch to|move to|pin|pick)\b|先用|就用|改用|换成|用上", re.IGNORECASE
)


#: What a pick names when it is a place, not a version or a name: "/refs/…", "s3://…".
_PLACE = re.compile(r"\s*[`'\"]?(?:/|~/|\./|[a-z][\w+.-]*://)")


def _picks_other(new: str, start: int, end: int, value: str) -> bool:
    """Whether a pick word between ``start`` and ``end`` of ``new`` picks a place, not
    ``value`` ("STAR 索引…，先用 /refs/…，是 Lin 建的": the index path, not Lin)."""
    for pick in _PICK.finditer(new, start, end):
        clause = _BOUNDARY.search(new, pick.end())
        said = new[pick.end() : clause.start() if clause else len(new)]
        if _PLACE.match(said) and value not in said:  # "use ./bin/x from the v3.2.1 tarball"
            return True
    return False


_BOUNDARY = re.compile(r"[,;:!?，；：。！？]|\.(?:\s|$)|\s[-—–]+\s")


#: A rule that is a prohibition from its first word ("- 不要用 HAL 库的 …", "never use X"), not
#: one that also states a choice ("Pin numpy to 1.24.4 - don't upgrade past it").
_PROHIBITION = re.compile(r"^\W*(?:never|don'?t|do not|no|avoid|不要|别|禁止|不准|不许|勿)", re.I)


def reasoned(new: str, old: str, cues: Cues | None = None) -> list[tuple[str, str]]:
    """``(old value, new value)``: ``new`` names a value ``old`` states, then in a later
    clause another value of its shape ("v2.3.4 has the migration bug, go v2.4.0-rc2",
    "m6i.large is still tight on memory, c6i.xlarge is cheaper, use that"): the reason
    for the change, then the replacement. A prohibition has no replacement: "绕开 HAL …，直接写
    TX mailbox" keeps "不要用 HAL 库的 …"."""
    if _PROHIBITION.match(old) or (cues is not None and parts_differ(new, old, cues.concepts)):
        return []
    mine = keyed_values(new, cues)
    for o in keyed_values(old, cues):
        if o.shape == "word" or not _said(o.value, new):
            continue
        named = [m.start() for m in re.finditer(re.escape(o.value), new)]
        if len(named) != 1:
            continue
        for n in mine:
            if n.start <= named[0] or _said(n.value, old) or not _comparable(n, o):
                continue
            between = new[named[0] : n.start]
            if _picks_other(new, named[0], n.start, n.value):
                continue  # "STAR 索引…，先用 /refs/…，是 Lin 建的": the pick is the path
            if (n.form == o.form or n.shape == o.shape == "version") and _BOUNDARY.search(between):
                return [(o.value, n.value)]
    return []


__all__ = ["reasoned"]
