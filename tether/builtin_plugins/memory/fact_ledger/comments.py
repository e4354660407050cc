"""Rules written as comments in what the user pastes: a config, a header, a script.

A user who pastes a file often states the rules right in it — ``# no public IPs on workers,
ever``, ``#define USE_DMA 1  // never turn this off``, ``# 注意：不要开 gzip`` — and the prose
reader, which skips code, never sees them. :func:`comment_rules` finds each line of a pasted
block whose comment is prose that states a rule (a negation, a modal, a word in capitals, a
Chinese prohibition) and no quantity, and the ledger keeps the whole line, code and comment, as
a constraint — or, when its code sets a key, the comment as the constraint and the line as
history (:func:`setting_rule`: a later message may change the value, not the rule).
:func:`pasted_notes` finds what else such a block states — a prose comment that is no rule (or
one with a quantity, which a later message may change), a key's setting in a short fenced block
(``replicaCount: 3``) — and the ledger keeps those lines whole as history.
"""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.words import WIDE

#: A comment: ``//``, ``#`` (not ``#define``/``#include`` … themselves), ``--`` (SQL, Lua),
#: ``;`` (ini) at a line's start or after code and white space, or ``/* … */``.
_COMMENT = re.compile(r"(?:^|\s)(?://+|#+(?![a-z])|--(?=\s)|;+(?=\s)|/\*+)\s*(?P<prose>.+)$")
#: A prohibition or an obligation in Chinese: a rule however short ("# 别改").
_WIDE_MUST = r"不要|别|禁止|必须|只能|不许|不准|务必|勿|不得|不能"
#: What makes a comment a rule rather than a description.
_RULE = re.compile(
    r"\b(?:never|always|must|mustn'?t|don'?t|do not|not|no|only|keep|avoid|required?|ever)\b"
    rf"|\b[A-Z]{{3,}}\b|{_WIDE_MUST}|注意|保持",
)
_WIDE_RULE = re.compile(_WIDE_MUST)
#: A quantity in the comment ("8 MHz", "<= 10ms"): it documents a setting, which a later
#: message may change in words the ledger cannot tie to this line; only rules are kept.
#: Not a time of day ("before 06:00 Berlin"): a number after a colon, a capitalized name.
_QUANTITY = re.compile(r"(?<![\d:])\d[\d.,]*\s?(?:[a-z]+\b|[A-Za-z]{1,3}\b|%)")
MIN_WORDS = 3
MIN_WIDE = 4
MAX_LINE = 240
MIN_LINES = 3  # a paste: a single line with a '#' is prose, not a file


def _prose(comment: str) -> bool:
    if len(WIDE.findall(comment)) >= MIN_WIDE or _WIDE_RULE.search(comment):
        return True
    return len(re.findall(r"[A-Za-z]{2,}", comment)) >= MIN_WORDS


def _rule(prose: str) -> bool:
    return bool(_RULE.search(prose)) and not _QUANTITY.search(prose)


def _prose_comments(text: str) -> list[tuple[str, str]]:
    """``(line, comment)`` for each line of a pasted block in ``text`` (of at least
    :data:`MIN_LINES` lines) whose comment is prose, the line stripped."""
    lines = text.splitlines()
    if len(lines) < MIN_LINES:
        return []
    out = []
    for line in lines:
        found = _COMMENT.search(line)
        if found is None or len(line.strip()) > MAX_LINE:
            continue
        prose = found.group("prose").rstrip("*/ ").strip()
        if _prose(prose):
            out.append((line.strip(), prose))
    return out


def comment_rules(text: str) -> list[str]:
    """The lines of a pasted block in ``text`` whose comment states a rule, whole, stripped."""
    return [line for line, prose in _prose_comments(text) if _rule(prose)]


def setting_rule(line: str) -> str:
    """The comment of a rule line (:func:`comment_rules`) whose code sets a key to a value
    ("catchup: false   # never backfill automatically"), verbatim; "" for another line.
    The rule outlives the value: a later message may change the setting, not the rule."""
    found = _COMMENT.search(line)
    if found is None or not _SETTING_LINE.match(line[: found.start()]):
        return ""
    return found.group("prose").rstrip("*/ ").strip()


#: The body of a fenced block (the line after its opening ``` to its close or the end).
FENCED_BODY = re.compile(r"```[^\n]*\n(.*?)(?:```|$)", re.DOTALL)
#: A key's setting: a name, ``:`` or ``=``, one literal value ("replicaCount: 3",
#: "  repository: registry.example.io/app", "time_step = 54,", 'queue = "short"'); not code
#: (``total = price * qty``, ``x = load(path)``).
_SETTING_LINE = re.compile(
    r"^\s*[A-Za-z_][\w.-]{0,40}\s*[:=]\s*(?:\"[^\"]*\"|'[^']*'|[\w./:@$~+-]+(?:,[\w./:@$~+-]+)*)"
    r"\s*[,;]?\s*$"
)
MAX_BLOCK_LINES = 40  # a longer fenced block is a log or a whole file: its settings are not
MAX_NOTES = 16  # lines of one message


def pasted_notes(text: str) -> list[str]:
    """The lines of a paste in ``text`` that state something beyond its rules, whole and
    stripped: a prose comment :func:`comment_rules` does not keep, and the setting lines of
    a fenced block of at most :data:`MAX_BLOCK_LINES` lines; at most :data:`MAX_NOTES`."""
    out = [line for line, prose in _prose_comments(text) if not _rule(prose)]
    for block in FENCED_BODY.findall(text):
        rows = block.splitlines()
        if len(rows) <= MAX_BLOCK_LINES:
            out += [
                row.strip()
                for row in rows
                if _SETTING_LINE.match(row) and len(row.strip()) <= MAX_LINE
                and row.strip() not in out
            ]  # fmt: skip
    return out[:MAX_NOTES]


__all__ = ["FENCED_BODY", "comment_rules", "pasted_notes", "setting_rule"]
