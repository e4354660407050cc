"""One name, another number: "GRCh37" → "GRCh38", "SF12" → "SF9", "Java17" → "Java21".

A name that is letters and a number in one word is one thing in one of its numbered forms (a
build, a level, a generation). A later change or decision that names the same letters with
another number, and not the old one, gives that thing another value: it replaces the earlier
rule, whatever other words the two share — in any language, since only the name's shape
counts. Without a cue two numberings are two things ("the draft is in sec2" / "the figures go
in sec3"), as :mod:`.supersede` reads them.
"""

from __future__ import annotations

import re

#: Letters then a number, one word: "GRCh38", "SF9", "es2022", "gpt4" ("x86_64" is not one).
_NUMBERED = re.compile(r"(?<![\w.@/-])([A-Za-z]{2,})(\d{1,4})(?![\w@/-]|\.\w)")


def numbered(text: str) -> dict[str, set[str]]:
    """``{letters (case aside): {numbers}}`` of the numbered names ``text`` says."""
    out: dict[str, set[str]] = {}
    for match in _NUMBERED.finditer(text):
        out.setdefault(match.group(1).casefold(), set()).add(match.group(2))
    return out


def renumbered(new: str, old: str) -> bool:
    """Whether ``new`` names a numbered name of ``old`` with another number only (the old
    number is not said again: "SF9 beats SF12" compares, it does not change)."""
    mine, theirs = numbered(new), numbered(old)
    return any(
        len(theirs[name]) == 1 and not theirs[name] & numbers
        for name, numbers in mine.items()
        if name in theirs
    )


__all__ = ["numbered", "renumbered"]
