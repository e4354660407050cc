"""A take-back that opens with its topic: "邮件那个不要了，不再发", "The e-mail part: no longer
needed, they read the bucket themselves".

A sentence with a ``revoke`` cue whose first clause names a thing and nothing else (the cue
words, "that one", "那个" blanked) takes back the one earlier rule that names that thing too;
all of it, its details too ("地址 X"); with two or more such rules it is unclear which,
and none retires.
"""

from __future__ import annotations

from collections.abc import Sequence

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.split import split_sentences
from tether.builtin_plugins.memory.fact_ledger.words import (
    CLAUSES,
    FUNCTION_WORDS,
    shared_count,
    vocabulary,
    words_of,
)

_BACK = vocabulary("back_references")
_WIDE_BACK = sorted((w for w in _BACK if not w.isascii()), key=len, reverse=True)  # longest first
_ASCII_BACK = frozenset(w for w in _BACK if w.isascii())
_CUES = ("revoke", "discard", "constraint", "change", "revert", "gone")


def topic_words(text: str, cues: Cues) -> set[str]:
    """The content words of the first clause of ``text``, cue words and pointers left out
    (a lone CJK character is no word)."""
    first = next((c for c in CLAUSES.split(text) if c.strip()), "")
    rest = cues.blank(first, _CUES)
    for word in _WIDE_BACK:
        rest = rest.replace(word, " ")
    words = words_of(rest) - _ASCII_BACK
    return {w for w in words if len(w) > 1}


def revoked_topic(fact: Fact, rules: Sequence[Fact], cues: Cues) -> list[Fact]:
    """The one live rule of an earlier message that the topic of ``fact`` (a revoke) names."""
    sentence = split_sentences(fact.text)[0] if fact.text else ""
    if cues.cue_span(sentence, ("revoke", "discard"))[0] > 0:
        return []  # the take-back speaks in a later clause: the first one is no topic of it
    words = topic_words(sentence, cues) - FUNCTION_WORDS
    if not words:
        return []
    need = min(2, shared_count(words))  # "the old docker rules": more than "rules" in common
    found = [
        old
        for old in rules[-250:]
        if old is not fact
        and old.live
        and old.source != fact.source
        and shared_count(words & words_of(old.text)) >= need
    ]
    return found if len(found) == 1 else []


__all__ = ["revoked_topic", "topic_words"]
