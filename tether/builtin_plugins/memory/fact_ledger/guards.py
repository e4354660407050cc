"""Which look-alike rule a change is, or is not, about (:mod:`.supersede` asks):

- a cued change naming a rule's number again beside a new one changes that rule ("the API
  chokes at 100, drop batches to 25");
- a value said to come beside another replaces nothing without a cue ("a second target");
- "the X is Y now" is about a rule naming a value of Y's kind, or a location it moves;
- "switch precision to fp16" is about no rule saying what another key is now.
"""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.hosts import moved
from tether.builtin_plugins.memory.fact_ledger.nowvalue import now_values, old_kinds, value_kind
from tether.builtin_plugins.memory.fact_ledger.words import stemmed, word_search, words_of

NUMBER_BONUS = 0.5  # a rule whose number a cued change names again is the one it changes
_OLD_NUMBER = re.compile(r"(?<![\w.:/])\d{2,}(?:\.\d+)?(?![\w:/]|\.\d)")  # not 05:30


_A_NUMBER = re.compile(r"(?<![\w.:/])\d+(?:\.\d+)?(?![\w:/]|\.\d)")


_ADDED_ITEM = word_search("added_items")


#: What a switch is said of: "switch precision to fp16", "change the log level to debug".
SWITCHED = re.compile(r"\b(?:switch|change)\s+(?:the\s+|our\s+)?(\w+(?:\s\w+)?)\s+to\b", re.I)


def keyed_elsewhere(old: str, scope: set[str], cues: Cues) -> bool:
    """Whether ``old`` says what a key other than the words of ``scope`` is now."""
    keys = [key for key, _value in now_values(old, cues)]
    return bool(keys) and not any(stemmed(key) & scope for key in keys)


def said_now_of(new: str, old: str, cues: Cues) -> bool:
    """Whether what ``new`` says holds now may be a new value of ``old``'s: ``old`` names a
    value of that kind (:mod:`.nowvalue`), or a location ``new`` moves."""
    kinds = {value_kind(value) for _key, value in now_values(new, cues)}
    return bool(kinds & old_kinds(old)) or moved(new, old, cues, cued=True)


def adds(text: str) -> bool:
    """Whether ``text`` says its value comes beside another: "a second target", "another
    queue", "再加一个 broker" (not "also", which opens changes as often as additions; not "…;
    we may add a second target later", whose clause holds no value)."""
    if _ADDING.search(text) is None:
        return False
    return any(
        not text[: m.start()].rstrip().endswith(tuple("0123456789"))  # "a 30 second timeout"
        and not text[m.end() :].lstrip().startswith("thing")  # "another thing: …"
        and _VALUE.search(_clause_at(text, m.start())) is not None
        for m in _ADDED_ITEM.finditer(text)
    )


_VALUE = re.compile(r"\w[\w.-]*[\d_.-][\w.-]*\w")


def _clause_at(text: str, at: int) -> str:
    start = max(text.rfind(";", 0, at), text.rfind(",", 0, at)) + 1
    ends = [e for e in (text.find(";", at), text.find(",", at)) if e >= 0]
    return text[start : min(ends) if ends else len(text)]


#: A verb of adding beside the additive word: "we're adding a second target" (not "use
#: another queue: orders-v2", a replacement).
_ADDING = re.compile(r"\b(?:add|adds|adding|added|plus|also|as well)\b|加|新增|另外", re.I)


def renumbers(new: str, old: str) -> bool:
    """Whether ``new`` names again a number of ``old`` (two digits or more, of the same unit
    word if any: "the 100 users test" is no "100 connections") beside a number ``old`` does
    not state: the rule whose number a cued change gives anew."""
    theirs = set(_A_NUMBER.findall(old))
    mine = set(_A_NUMBER.findall(new))
    named = [n for n in _OLD_NUMBER.findall(new) if n in theirs and _same_unit(new, old, n)]
    return bool(named) and bool(mine - theirs)


def _same_unit(new: str, old: str, number: str) -> bool:
    units = _unit(new, number), _unit(old, number)
    return not all(units) or units[0] == units[1]


def _unit(text: str, number: str) -> str:
    """The word after ``number`` in ``text`` ("100 users" → "user"; "" when none)."""
    found = re.search(rf"(?<![\w.]){re.escape(number)}\s*([A-Za-z]+)", text)
    return next(iter(stemmed({found.group(1).casefold()})), "") if found else ""


def cue_words_of(text: str, cues: Cues | None) -> set[str]:
    """The words of ``text``'s change and take-back cues ("non serve più", "no longer"), not
    the subject words a gapped cue spans ("move data to": "data" stays a subject word)."""
    out: set[str] = set()
    if cues is None:
        return out
    for kind in ("change", "revoke"):
        span = cues.find(kind, text)
        if span is not None:
            cue = text[span[0] : span[1]]
            out |= words_of(cue) if not cue.isascii() else words_of(cue) & cues.words(kind)
    return out


__all__ = [
    "NUMBER_BONUS",
    "SWITCHED",
    "adds",
    "cue_words_of",
    "keyed_elsewhere",
    "renumbers",
    "said_now_of",
]
