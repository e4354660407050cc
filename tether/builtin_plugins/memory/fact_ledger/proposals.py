"""What the assistant proposes in one message: its sentences with a proposal cue ("I'd
suggest …", "shall I …", 建议…). A closing question that only points back ("Want me to do
that?", 要我这样改吗？) names nothing itself: the sentence before it is the proposal."""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.extract import MAX_FACT, flat, sentences
from tether.builtin_plugins.memory.fact_ledger.words import vocabulary, word_count

_BACK = vocabulary("back_references")
MAX_POINTER_WORDS = 6  # words of a question that only points back (two CJK characters: one)
_ASCII = re.compile(r"[a-z']+")
_NAMES = re.compile(r"[0-9_=/@]|\.\w")  # a digit, a path, a flag value, a dotted name


def points_back(sentence: str) -> bool:
    """``sentence`` is short, names no value and refers back ("do that", "go with this",
    这样改): it proposes what the sentence before it says."""
    if _NAMES.search(sentence):
        return False
    if word_count(sentence) > MAX_POINTER_WORDS:
        return False
    lowered = sentence.casefold()
    return any(w in _BACK for w in _ASCII.findall(lowered)) or any(
        w in lowered for w in _BACK if not w.isascii()
    )


def proposed(text: str, cues: Cues) -> list[str]:
    """The proposals of one assistant text, verbatim (a pointing question replaced by the
    sentence it points to)."""
    if not cues.may_have("proposal", text):
        return []
    out: list[str] = []
    said = sentences(text)
    for at, sentence in enumerate(said):
        if not cues.has("proposal", sentence):
            continue
        if at and points_back(sentence):
            sentence = said[at - 1]
        words = flat(sentence, MAX_FACT)
        if words not in out:
            out.append(words)
    return out


__all__ = ["points_back", "proposed"]
