"""A measure written as one hyphenated word measures the noun right after it.

"a 12-month lookback", "a 30-day retention window": another value changes it only where that
noun keys the value too ("lookback: 6 months", "a lookback of 6 months", "a 6-month
lookback") and the changing clause names nothing the other does not ("Blink has a 15-second
cooldown" is Blink's, not Fireball's). "Session cookies get a 12-hour expiry" and "Remember-me
cookies last 30 days" are two things, though both are durations of cookies.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Protocol

from tether.builtin_plugins.memory.fact_ledger.words import FUNCTION_WORDS, word_root

_HYPHENED = re.compile(r"^\d+(?:\.\d+)?-[A-Za-z]{2,}$")
_NOUN_AFTER = re.compile(r"\s+([A-Za-z][\w-]*)")
_TOKENS = re.compile(r"[A-Za-z][\w-]*|[:=]")
#: Words that may stand between a key and its value: "lookback of 6 months", "timeout is 90s".
_BRIDGE = frozenset("of is are was be to at set now should must will : =".split())
MAX_BRIDGE = 2
#: Where a clause ends; a label's colon does not end it ("Blink: 15-second cooldown").
_CLAUSE = re.compile(r"[,;!?，；。！？\n]|\.(?:\s|$)|\s[-—–]+\s")
_WORD = re.compile(r"[A-Za-z][\w'-]*[A-Za-z0-9]|[\u3400-\u9fff]{2,}")


class Value(Protocol):
    text: str
    cls: str
    start: int


def _noun_after(text: str, value: Value) -> str:
    found = _NOUN_AFTER.match(text, value.start + len(value.text))
    return word_root(found.group(1).casefold()) if found else ""


def _keys(noun: str, text: str, value: Value) -> bool:
    """Whether ``noun`` keys ``value`` in ``text``: right after it, or before it with at
    most :data:`MAX_BRIDGE` linking words between."""
    if _noun_after(text, value) == noun:
        return True
    before = _TOKENS.findall(text[: value.start].casefold())
    for back, token in enumerate(reversed(before[-(MAX_BRIDGE + 1) :])):
        if word_root(token) == noun:
            return True
        if token not in _BRIDGE or back >= MAX_BRIDGE:
            return False
    return False


def _clause(text: str, value: Value) -> str:
    """The clause of ``text`` around ``value``."""
    starts = [m.end() for m in _CLAUSE.finditer(text, 0, value.start)]
    end = _CLAUSE.search(text, value.start + len(value.text))
    return text[starts[-1] if starts else 0 : end.start() if end else len(text)]


def _names_more(clause: str, other: str) -> bool:
    """Whether ``clause`` names a word ``other`` does not say (its subject: "Blink")."""
    theirs = {word_root(w.casefold()) for w in _WORD.findall(other)}
    return any(
        word_root(w.casefold()) not in theirs
        for w in _WORD.findall(clause)
        if w.casefold() not in FUNCTION_WORDS
    )


def measured_alike(new: str, n: Value, old: str, o: Value) -> bool:
    """Whether values ``n`` of ``new`` and ``o`` of ``old`` measure one thing as far as a
    hyphenated measure tells (see the module); true when neither is one."""
    hyphened = False
    for text, value, other, theirs in ((new, n, old, o), (old, o, new, n)):
        if _HYPHENED.match(value.text):
            hyphened = True
            noun = _noun_after(text, value)
            if not noun or not _keys(noun, other, theirs):
                return False
    if not hyphened:
        return True
    mine, theirs = _clause(new, n).replace(n.text, " "), _clause(old, o).replace(o.text, " ")
    return not _names_more(mine, theirs)


def measures_apart(new: str, old: str, read: Callable[[str], Sequence[Value]]) -> bool:
    """Whether ``new`` and ``old`` state measures of one class (``read``: their values) only
    where a hyphenated one measures something else ("P2: 1-day response" beside "a 4-hour
    response for P1"): whatever else likens the two sentences, they are two rules."""
    pairs = [
        (n, o)
        for n in read(new)
        for o in read(old)
        if n.cls == o.cls and (_HYPHENED.match(n.text) or _HYPHENED.match(o.text))
    ]
    return bool(pairs) and not any(measured_alike(new, n, old, o) for n, o in pairs)


__all__ = ["measured_alike", "measures_apart"]
