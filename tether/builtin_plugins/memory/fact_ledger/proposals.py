"""What the assistant proposes in one message, for a user's "yes" to accept (see
:mod:`.build`): a sentence with a ``proposal`` cue ("I'd suggest …", "shall I …", 建议…), or
a question made of a change itself ("Switch to SF9?", "Bump it to 3.12?", "换成 Kafka？"): a
change cue opens it and it names a value. A closing question that only points back ("Want me
to do that?", 要我这样改吗？) names nothing itself: the sentence before it is the proposal."""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.extract import MAX_FACT, flat, sentences
from tether.builtin_plugins.memory.fact_ledger.implicit import values
from tether.builtin_plugins.memory.fact_ledger.words import vocabulary, word_count

_BACK = vocabulary("back_references")
MAX_POINTER_WORDS = 6  # words of a question that only points back (two CJK characters: one)
MAX_LEAD_WORDS = 1  # words before the change cue of a change question: "So switch to SF9?"
_ASCII = re.compile(r"[a-z']+")
_NAMES = re.compile(r"[0-9_=/@]|\.\w")  # a digit, a path, a flag value, a dotted name
#: A value named after the cue: a word with a digit, a capitalized or code-like name.
_NAMED = re.compile(r"[\w.-]*\d|(?<![\w.-])[A-Z][\w.+-]+|`[^`]+`|[\w-]+\.[A-Za-z]\w*")


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


def proposes(sentence: str, cues: Cues) -> bool:
    """Whether an assistant's ``sentence`` proposes something the user may accept."""
    if cues.has("proposal", sentence):
        return True
    if not sentence.rstrip().endswith(("?", "？")):
        return False
    span = cues.find("change", sentence)
    if span is None or word_count(sentence[: span[0]]) > MAX_LEAD_WORDS:
        return False
    rest = sentence[span[1] :]
    return bool(_NAMED.search(rest) or values(rest, cues))


def proposed(text: str, cues: Cues) -> list[str]:
    """The proposals of one assistant text, verbatim (a pointing question replaced by the
    sentence it points to)."""
    if not cues.may_have("proposal", text) and not {"?", "？"} & set(text):
        return []
    out: list[str] = []
    said = sentences(text)
    for at, sentence in enumerate(said):
        if not proposes(sentence, cues):
            continue
        if at and points_back(sentence):
            sentence = said[at - 1]
        words = flat(sentence, MAX_FACT)
        if words not in out:
            out.append(words)
    return out


def offered(proposal: str, cues: Cues) -> str:
    """What a proposal offers to do, without the words that offer it: "Want me to bump to
    7.0.12?" → "bump to 7.0.12", "Shall I switch the cache to Valkey?" → "switch the cache to
    Valkey" — the change itself, as the user accepts it (verbatim, its question mark aside);
    a suggestion that is no question is kept as said."""
    if not proposal.rstrip().endswith(("?", "？")):
        return proposal  # "我建议把过期时间改成 300 秒。": the suggestion as said
    span = cues.find("proposal", proposal)
    if span is None or span[0] > 2 or not cues.has("change", proposal[span[1] :]):
        return proposal
    rest = proposal[span[1] :].strip().rstrip("?？").strip()
    return rest if word_count(rest) >= 2 else proposal


__all__ = ["offered", "points_back", "proposed", "proposes"]
