"""A sentence the user closes by calling it an aside: "also I'll switch the dashboards to dark
mode later, unrelated, ignore", "我晚上还要更新一下电脑上的 IDE，跟这个没关系。" It states no rule
and changes none. One that opens so ("Unrelated, but from now on always use UTC") starts a new
topic and is read as any other sentence."""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.words import vocabulary, word_search

_ASIDE = word_search("aside_markers")
#: The longest word of each marker: a sentence holding none of them is no aside (a cheap test
#: before the pattern, which every sentence of a compaction meets).
_ANCHORS = tuple(
    max(phrase.replace("_", " ").split(), key=len) for phrase in vocabulary("aside_markers")
)
#: What may follow the marker at the sentence's end: punctuation, "ignore (it)", 忽略.
_TAIL = re.compile(r"^[\s,，.。!！;；:：]*(?:ignore(?: it| that)?|忽略)?[\s,，.。!！]*$", re.I)


def aside(sentence: str) -> bool:
    """Whether ``sentence`` closes with an aside marker (``aside_markers``) after its words."""
    lowered = sentence.casefold()
    if not any(anchor in lowered for anchor in _ANCHORS):
        return False
    found = list(_ASIDE.finditer(sentence))
    last = found[-1] if found else None
    return last is not None and last.start() > 0 and _TAIL.match(sentence[last.end() :]) is not None


__all__ = ["aside"]
