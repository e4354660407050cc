"""One name, another number: "GRCh37" → "GRCh38", "SF12" → "SF9", "Java17" → "Java21",
"/data/bars/v1" → "/data/bars/v2", "db-01.internal" → "db-02.internal".

A name that is letters and a number in one word is one thing in one of its numbered forms (a
build, a level, a generation); so is a path, dotted name or host whose parts differ only in
their numbers (a dataset's version, a replica's index). A later change or decision that
names the same name with another number, and not the old one, gives that thing another
value: it replaces the earlier rule, whatever other words the two share — in any language,
since only the name's shape counts. A path, dotted name or host needs a change, or a
statement of what holds now ("read from /data/bars/v2 now") that adds nothing beside it and
names no other part. Without a cue two numberings are two things ("the draft is in sec2" /
"the figures go in sec3"), as :mod:`.supersede` reads them.
"""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.concepts import parts_differ
from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.words import ADDED

#: Letters then a number, one word: "GRCh38", "SF9", "es2022", "gpt4" ("x86_64" is not one).
_NUMBERED = re.compile(r"(?<![\w.@/-])([A-Za-z]{2,})(\d{1,4})(?![\w@/-]|\.\w)")


#: A path, dotted name or host: words joined by "/" or "." ("/data/bars/v1", "web.clicks.v2").
_STRUCTURED = re.compile(r"(?<![\w@/.:-])/?(?:[\w-]+[/.])+[\w-]+/?(?![\w/-]|\.\w)")
_DIGITS = re.compile(r"\d+")
_NAMING = re.compile(r"[A-Za-z]{2,}")  # "v1.2.3" names nothing but its numbers


def numbered(text: str, *, structured: bool = True) -> dict[str, set[str]]:
    """``{name: {numbers}}`` of the numbered names ``text`` says: letters (case aside) and
    their number, and (with ``structured``) a structured value with each number masked and
    its numbers."""
    out: dict[str, set[str]] = {}
    for match in _NUMBERED.finditer(text):
        out.setdefault(match.group(1).casefold(), set()).add(match.group(2))
    for match in _STRUCTURED.finditer(text) if structured else ():
        value = match.group(0)
        masked = _DIGITS.sub("#", value)
        if masked != value and _NAMING.search(masked):
            out.setdefault(masked.casefold(), set()).add(",".join(_DIGITS.findall(value)))
    return out


#: Said as what holds now ("read from …/v2 now", 数据现在在 …): a renumbering in force —
#: not "Now add …", "现在开始写 …", where it only says what comes next.
_NOW = re.compile(r"(?<=\S)\s*(?:\b(?:now|these days|from here on)\b|现在|如今|目前)", re.I)
_NEXT = re.compile(r"^\W*(?:now|现在|如今)\b|现在开始|现在先", re.IGNORECASE)


def said_now(text: str) -> bool:
    """Whether ``text`` says what holds now and adds nothing beside it (no word of
    :data:`~.words.ADDED`: "another", 另外)."""
    return _NOW.search(text) is not None and not _NEXT.search(text) and not ADDED.search(text)


def renumbered(
    new: str, old: str, cues: Cues | None = None, now: bool = False, structured: bool = True
) -> bool:
    """Whether ``new`` names a numbered name of ``old`` with another number only (the old
    number is not said again: "SF9 beats SF12" compares, it does not change); ``now``: said
    only as what holds now, so not when the two name different parts ("the primary" /
    "the replica"); ``structured``: paths, dotted names and hosts count too."""
    if now and cues is not None and parts_differ(new, old, cues.concepts):
        return False
    mine, theirs = numbered(new, structured=structured), numbered(old, structured=structured)
    return any(
        len(theirs[name]) == 1 and not theirs[name] & numbers
        for name, numbers in mine.items()
        if name in theirs
    )


def names_its_rule(new: str, rules: list[str]) -> bool:
    """Whether ``new`` names a number of a name that one of ``rules`` states ("GPIO17 is
    loose, PIR goes to GPIO27" after "PIR on GPIO17"): that rule is the one it renumbers, not
    another rule of the name ("IR light on GPIO22")."""
    mine = numbered(new, structured=False)
    for rule in rules:
        theirs = numbered(rule, structured=False)
        if any(name in theirs and theirs[name] & numbers for name, numbers in mine.items()):
            return True
    return False


__all__ = ["names_its_rule", "numbered", "renumbered", "said_now"]
