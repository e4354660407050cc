"""Rules written as comments in what the user pastes: a config, a header, a script.

A user who pastes a file often states the rules right in it — ``# no public IPs on workers,
ever``, ``#define USE_DMA 1  // never turn this off``, ``# 注意：不要开 gzip`` — and the prose
reader, which skips code, never sees them. :func:`comment_rules` finds each line of a pasted
block whose comment is prose that states a rule (a negation, a modal, a word in capitals, a
Chinese prohibition) and no quantity, and the ledger keeps the whole line, code and comment, as
a constraint.
"""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.words import WIDE

#: A comment: ``//``, ``#`` (not ``#define``/``#include`` … themselves), ``--`` (SQL, Lua),
#: ``;`` (ini) at a line's start or after code and white space, or ``/* … */``.
_COMMENT = re.compile(r"(?:^|\s)(?://+|#+(?![a-z])|--(?=\s)|;+(?=\s)|/\*+)\s*(?P<prose>.+)$")
#: What makes a comment a rule rather than a description.
_RULE = re.compile(
    r"\b(?:never|always|must|mustn'?t|don'?t|do not|not|no|only|keep|avoid|required?|ever)\b"
    r"|\b[A-Z]{3,}\b|不要|别|禁止|必须|只能|注意|不许|不准|务必|勿|不得|保持",
)
#: A quantity in the comment ("8 MHz", "<= 10ms"): it documents a setting, which a later
#: message may change in words the ledger cannot tie to this line; only rules are kept.
_QUANTITY = re.compile(r"\d(?:[\d.,]*)\s?(?:[A-Za-z%]+\b|%)")
MIN_WORDS = 3
MIN_WIDE = 4
MAX_LINE = 240
MIN_LINES = 3  # a paste: a single line with a '#' is prose, not a file


def _prose(comment: str) -> bool:
    if len(WIDE.findall(comment)) >= MIN_WIDE:
        return True
    return len(re.findall(r"[A-Za-z]{2,}", comment)) >= MIN_WORDS


def comment_rules(text: str) -> list[str]:
    """The lines of a pasted block in ``text`` whose comment states a rule, whole, stripped."""
    lines = text.splitlines()
    if len(lines) < MIN_LINES:
        return []
    out = []
    for line in lines:
        found = _COMMENT.search(line)
        if found is None or len(line.strip()) > MAX_LINE:
            continue
        prose = found.group("prose").rstrip("*/ ").strip()
        if _prose(prose) and _RULE.search(prose) and not _QUANTITY.search(prose):
            out.append(line.strip())
    return out


__all__ = ["comment_rules"]
