"""A value set against the one it replaces in one breath: "send on the 3rd, not the 1st",
"port 8443 not 8080", "v3 not v2 of the API". Both sides hold a digit and have one shape
(digits and letters in the same runs: ``3rd``/``1st``, ``8443``/``8080``): the second is the
old value, and the rules naming it are replaced (as after "instead of")."""

from __future__ import annotations

import re

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


__all__ = ["contrasted"]
