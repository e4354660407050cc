"""A value set against the one it replaces in one breath: "send on the 3rd, not the 1st",
"port 8443 not 8080", "v3 not v2 of the API". Both sides hold a digit and have one shape
(digits and letters in the same runs: ``3rd``/``1st``, ``8443``/``8080``): the second is the
old value, and the rules naming it are replaced (as after "instead of")."""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.keyshape import keyed_values

_CONTRAST = re.compile(
    r"(?<![\w.:/@=+-])([\w.:/@=+-]*\d[\w.:/@=+-]*)\s*,?\s+not\s+(?:the\s+|a\s+)?"
    r"([\w.:/@=+-]*\d[\w.:/@=+-]*?)(?=[\s,;.!?)]|$)",
    re.IGNORECASE,
)
_RUNS = re.compile(r"\d+|[^\W\d_]+|[\W_]")


def _shape(value: str) -> list[str]:
    """``3rd`` → ``["#", "rd"]``: digit runs as ``#``, letter runs as themselves (lowercase)
    when the value is an ordinal or unit, the other characters as they are."""
    return ["#" if run.isdigit() else run.casefold() for run in _RUNS.findall(value)]


def _alike(new: str, old: str) -> bool:
    a, b = _shape(new), _shape(old)
    if len(a) != len(b):
        return False
    ordinals = {"st", "nd", "rd", "th"}
    return all(x == y or (x in ordinals and y in ordinals) for x, y in zip(a, b, strict=True))


def contrasted(text: str) -> str:
    """The old value of the first "new, not old" pair of ``text`` ("" when none)."""
    for match in _CONTRAST.finditer(text):
        new, old = match.group(1), match.group(2)
        if new.casefold() != old.casefold() and _alike(new, old):
            return old
    return ""


def _key(value: str, text: str, cues: Cues | None) -> frozenset[str]:
    """The words that say what ``value`` is in ``text`` (its key and tail; "" → none)."""
    for keyed in keyed_values(text, cues):
        if keyed.value == value:
            return (keyed.key | keyed.tail) - {"not"}
    return frozenset()


def other_key(new: str, old: str, value: str, cues: Cues | None) -> bool:
    """Whether the contrast ``new`` sets a value of another thing than the ``value`` of rule
    ``old``: "timeout is 30s, not 10s" says nothing of "retry with a 10s backoff". Both sides
    must say what their value is, in words that share none."""
    match = next((m for m in _CONTRAST.finditer(new) if m.group(2) == value), None)
    if match is None:
        return False
    mine, theirs = _key(match.group(1), new, cues), _key(value, old, cues)
    return bool(mine) and bool(theirs) and not mine & theirs


__all__ = ["contrasted", "other_key"]
