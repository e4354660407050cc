"""A value set for now only: "keep it on GRCh37 for now", "镜像校验先用 CRC32".

A rule said as holding for now (a ``provisional`` cue) is the one a later change is most
likely about: a change cue and one subject word in common (cue words aside: "校验改为 SHA-256"
after "镜像校验先用 CRC32") are enough to replace it, where two rules said for good need a
closer likeness. A change stating a quantity (a size, a duration, a count) is no change of
a rule held for now that states none of its kind ("上传限制改为 50MB" is not about
"暂时把上传日志写到 X"): names aside, a value changes a value of its own class. A place (a
path, a URL) is a class of its own: "the topic is actually /arm/joint_commands" is not about
"cap joint velocity at 1.2 rad/s for now".
"""

from __future__ import annotations

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.identifiers import identifier_spans
from tether.builtin_plugins.memory.fact_ledger.implicit import values
from tether.builtin_plugins.memory.fact_ledger.words import memo_per_cues, words_of

BONUS = 0.2  # added to the likeness of a rule held for now that shares a subject word
_CUE_KINDS = ("provisional", "constraint", "select", "change", "decision", "task", "revoke")


@memo_per_cues
def _subject_words(text: str, cues: Cues) -> frozenset[str]:
    """The words of ``text`` past its cue words: what it is about (memoized per text)."""
    words = words_of(cues.blank(text, _CUE_KINDS))
    vocabulary = frozenset().union(*(cues.words(kind) for kind in _CUE_KINDS))
    return frozenset(w for w in words if w not in vocabulary and len(w) > 1)


def _classes(text: str, cues: Cues) -> set[str]:
    """The classes of the values ``text`` states, a place (path, URL) among them."""
    found = {v.cls.split(":")[0] for v in values(text, cues)}
    places = {kind for _a, _b, kind, _s in identifier_spans(text) if kind in _PLACES}
    return found | places


_PLACES = ("path", "url")


def held_for_now(new: str, old: str, cues: Cues, said: str = "") -> bool:
    """Whether ``old`` holds for now only and shares a subject word with ``new`` (of the
    sentence ``said``, cue words blanked)."""
    if not cues.has("provisional", old):
        return False
    mine = _classes(said or new, cues) - {"name"}
    if mine and not mine & _classes(old, cues):
        return False  # "limit 50MB" is about no rule without a size
    return bool(_subject_words(new, cues) & _subject_words(old, cues))


__all__ = ["BONUS", "held_for_now"]
