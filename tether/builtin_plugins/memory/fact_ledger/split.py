"""Sentence splitting for the extractor: a message cut into its sentences and lines.

A sentence ends at ``.``, ``!`` or ``?`` followed by white space (closing quotes and brackets
stay with it), at ``。！？`` and at a line break. It does not end at an ellipsis (``...``,
``…``), after an abbreviation (``e.g.``, ``vs.``, ``etc.`` before a lower-case word), or
inside an inline code span, a URL or a quoted string: those keep their dots whole, as do
version numbers, decimals and paths (a dot not followed by white space never ends one).
"""

from __future__ import annotations

import re
from bisect import bisect_left

from tether.builtin_plugins.memory.fact_ledger.words import vocabulary

#: Spans never cut: inline code, URLs, double-quoted strings on one line, and single-quoted
#: ones whose quotes stand outside words ("'not quite, try again!' rather than 'Wrong'"; the
#: apostrophes of "don't" and "it's" open and close nothing).
_PROTECTED = re.compile(
    r"`[^`\n]+`"
    r"|(?<![\w/])[a-z][a-z0-9+.-]*://[^\s<>]+"
    r"|\"[^\"\n]{1,300}\"|“[^”\n]{1,300}”|「[^」\n]{1,300}」|『[^』\n]{1,300}』"
    r"|(?<!\w)'(?=\S)[^'\n]{1,120}(?<=\S)'(?!\w)|‘[^’\n]{1,120}’(?!\w)"
)
#: A candidate end: stops and closers followed by white space; a wide stop; a line break.
_MAY_PROTECT = re.compile(r"[\"`“「『'‘]|://")
_END = re.compile(r"[.!?…]+[\"'”’)\]]*(?=\s)|[。！？]+[”’」』）)]*|\n")
_ELLIPSIS = re.compile(r"(?:\.{2,}|…)[\"'”’)\]]*$")
#: Words whose dot is never a stop (dotted initialisms such as e.g., i.e., a.k.a. too)…
ABBREVIATIONS = frozenset("e.g i.e vs cf mr mrs ms dr prof".split())
#: …whose dot is a stop only before a capital ("etc. Then"; "5 min. Then retry")…
LOWER_ABBREVIATIONS = vocabulary("lower_abbreviations")
#: …and whose dot is not a stop only before a digit ("No. 5", "fig. 2").
NUMBER_ABBREVIATIONS = frozenset("no nos fig figs eq ver vol pp".split())
_WORD_BEFORE = re.compile(r"([A-Za-z][A-Za-z.]*)\.$")
_INITIALISM = re.compile(r"^(?:[A-Za-z]\.)+[A-Za-z]$")
_NEXT_WORD = re.compile(r"\s*([\"'“(]?)(\S)")


def _protected(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _PROTECTED.finditer(text)]


def _abbreviation(text: str, stop: int, after: int) -> bool:
    """The dot ending at ``stop`` closes an abbreviation, not a sentence."""
    found = _WORD_BEFORE.search(text, max(0, stop - 12), stop)
    if found is None:
        return False
    word = found.group(1).casefold()
    if word in ABBREVIATIONS or _INITIALISM.match(word):
        return True
    following = _NEXT_WORD.match(text, after)
    first = following.group(2) if following else ""
    if word in LOWER_ABBREVIATIONS:
        return not first.isupper()
    return word in NUMBER_ABBREVIATIONS and first.isdigit()


def _inside(spans: list[tuple[int, int]], starts: list[int], start: int, end: int) -> bool:
    """``start``…``end`` lies inside one of ``spans`` (sorted, not overlapping)."""
    at = bisect_left(starts, start) - 1
    return at >= 0 and end < spans[at][1]


def _quote_closes(
    text: str, spans: list[tuple[int, int]], starts: list[int], start: int, end: int
) -> bool:
    """``start``…``end`` (a stop and its closers) ends one of ``spans`` that is a quote."""
    at = bisect_left(starts, start) - 1
    return at >= 0 and end == spans[at][1] and text[spans[at][0]] in "\"'“‘「『"


def _lower_next(text: str, end: int) -> bool:
    following = _NEXT_WORD.match(text, end)
    return following is not None and following.group(2).islower()


def _is_end(
    text: str, match: re.Match[str], spans: list[tuple[int, int]], starts: list[int]
) -> bool:
    start, end = match.span()
    if match.group(0) == "\n":
        return True
    if spans and _inside(spans, starts, start, end):
        return False  # inside code, a URL or a quote
    if spans and _quote_closes(text, spans, starts, start, end) and _lower_next(text, end):
        return False  # "'not quite, try again!' rather than …": the sentence goes on
    stops = match.group(0).rstrip("\"'”’)]）」』")
    if _ELLIPSIS.search(stops):
        return False
    if stops.endswith(".") and len(stops) == 1:
        return not _abbreviation(text, start + 1, end)
    return True


def split_sentences(text: str) -> list[str]:
    """``text`` cut into sentences and lines (stripped; empty pieces left out)."""
    spans = _protected(text) if _MAY_PROTECT.search(text) else []
    starts = [a for a, _ in spans]
    out, begin = [], 0
    for match in _END.finditer(text):
        if _is_end(text, match, spans, starts):
            piece = text[begin : match.end()].strip()
            if piece:
                out.append(piece)
            begin = match.end()
    tail = text[begin:].strip()
    if tail:
        out.append(tail)
    return out


__all__ = [
    "ABBREVIATIONS",
    "LOWER_ABBREVIATIONS",
    "NUMBER_ABBREVIATIONS",
    "split_sentences",
]
