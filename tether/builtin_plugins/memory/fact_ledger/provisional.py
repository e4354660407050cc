"""A value set for now only: "keep it on GRCh37 for now", "镜像校验先用 CRC32".

A rule said as holding for now (a ``provisional`` cue) is the one a later change is most
likely about: a change cue and one subject word in common (cue words aside: "校验改为 SHA-256"
after "镜像校验先用 CRC32") are enough to replace it, where two rules said for good need a
closer likeness.
"""

from __future__ import annotations

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.words import words_of

BONUS = 0.2  # added to the likeness of a rule held for now that shares a subject word
_CUE_KINDS = ("provisional", "constraint", "select", "change", "decision", "task", "revoke")


def _subject_words(text: str, cues: Cues) -> set[str]:
    words = words_of(cues.blank(text, _CUE_KINDS))
    vocabulary = frozenset().union(*(cues.words(kind) for kind in _CUE_KINDS))
    return {w for w in words if w not in vocabulary and len(w) > 1}


def held_for_now(new: str, old: str, cues: Cues) -> bool:
    """Whether ``old`` holds for now only and shares a subject word with ``new``."""
    if not cues.has("provisional", old):
        return False
    return bool(_subject_words(new, cues) & _subject_words(old, cues))


__all__ = ["BONUS", "held_for_now"]
