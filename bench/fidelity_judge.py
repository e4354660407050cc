"""How ``bench/fidelity.py`` judges a family session's context after a compaction.

- **held**: a fact's text occurs verbatim somewhere in what the model receives (the summary or
  the kept entries).
- **stale shown as current**: a retired value occurs (as a whole token, :func:`occurs`) on a
  line of the *latest summary* (kept entries are verbatim history and never count) that is not
  (a) under ``### Done`` (history, in pi's format), nor
  (b) a change note about it: the line also holds the value that replaced it (``Use C
  (changed from B)``, ``switch to httpx instead of aiohttp``), or the value (or what follows
  the words it shares with its replacement: ``3.3.6`` of ``ggplot2==3.3.6``) stands within
  :data:`NOTE_REACH` characters of a change word (:data:`CHANGE_NOTES`: "changed from", "no
  longer", 不再, 改为…). A change word about one value on a long line does not excuse another
  old value on it.
  Heading lines never count. Each retired value counts at most once per compaction. So a value
  changed twice A→B→C: a line "Use C (changed from B)" is fine; a line "switch from A to B"
  shows B as current (an error) while marking A as replaced.
- **in section**: a fact with an expected ``section`` sits on a line under that heading (``##``
  or ``###``, so the gate's carried-forward subsections count) and is not ticked done.
- **ticked**: a next step found on a ``[x]`` line or under ``### Done``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from family_format import Script

CHANGE_NOTES = (
    "changed from",
    "changed to",
    "(was ",
    "replaced by",
    "superseded",
    "retired",
    "revoked",
    "no longer",
    "not anymore",
    "改为",
    "换成",
    "改用",
    "不再",
    "取消",
    "原为",
    "之前是",
    "已弃用",
)
HEADING = re.compile(r"^\s*(#{1,6})\s+(.*?)\s*$")
TICKED = re.compile(r"^\s*(?:[-*]|\d+[.)])?\s*\[[xX]\]")


@dataclass(frozen=True)
class Line:
    text: str
    h2: str  # the ``##`` heading above it ("" before any)
    h3: str  # the ``###`` heading above it within that section ("" when none)

    @property
    def done(self) -> bool:
        return self.h3 == "Done"

    def under(self, heading: str) -> bool:
        return heading in (self.h2, self.h3)


def lines(summary: str) -> list[Line]:
    """The summary's non-heading lines with the headings they sit under."""
    out, h2, h3 = [], "", ""
    for raw in summary.splitlines():
        match = HEADING.match(raw)
        if match and len(match.group(1)) <= 2:
            h2, h3 = match.group(2), ""
        elif match:
            h3 = match.group(2)
        elif raw.strip():
            out.append(Line(raw, h2, h3))
    return out


_WORDS = re.compile(r"[^\s=:@]+")
#: How near (in characters, either side) a change note must stand to the old value it excuses.
NOTE_REACH = 40


def _token(value: str) -> re.Pattern[str]:
    head = r"(?<![A-Za-z0-9_])" if value[:1].isascii() and value[:1].isalnum() else ""
    tail = r"(?![A-Za-z0-9_])" if value[-1:].isascii() and value[-1:].isalnum() else ""
    return re.compile(head + re.escape(value) + tail)


def occurs(value: str, text: str) -> bool:
    """``value`` in ``text`` as a whole token: an ASCII letter or digit at its edge must not
    continue in ``text`` (``--workers 2`` is not in ``--workers 24``; CJK next to it is fine)."""
    return _token(value).search(text) is not None


def _is_note(near: str) -> bool:
    lowered = near.lower()
    return any(note in lowered for note in CHANGE_NOTES)


def _differing(value: str, replacement: str | None) -> str:
    """``value`` after the words it shares with the start of its replacement (``3.3.6`` of
    ``ggplot2==3.3.6`` replaced by ``ggplot2==3.4.4``; ``value`` itself when none)."""
    if not replacement:
        return value
    old, new = list(_WORDS.finditer(value)), _WORDS.findall(replacement)
    shared = 0
    while shared < min(len(old), len(new)) - 1 and old[shared].group() == new[shared]:
        shared += 1
    return value[old[shared].start() :] if shared else value


def is_change_note(text: str, value: str, replacement: str | None) -> bool:
    """``text`` holds a change note about ``value`` (see the module)."""
    if replacement is not None and replacement in text:
        return True
    for named in dict.fromkeys((value, _differing(value, replacement))):
        for match in _token(named).finditer(text):
            start, end = match.span()
            if _is_note(text[max(0, start - NOTE_REACH) : end + NOTE_REACH]):
                return True
    return False


def stale(summary: str, script: Script) -> list[dict[str, str]]:
    """Retired values the summary shows as current: one entry per value, with where."""
    out = []
    parsed = lines(summary)
    for retired in script.retired:
        for line in parsed:
            if line.done or not occurs(retired.value, line.text):
                continue
            if is_change_note(line.text, retired.value, retired.by):
                continue
            where = line.h2 + (f" / {line.h3}" if line.h3 else "")
            out.append({"value": retired.value, "section": where, "line": line.text.strip()})
            break
    return out


def judge(summary: str, context: str, script: Script) -> dict[str, Any]:
    """The counts for one compaction: ``summary`` (latest summary text) and ``context``
    (every text the model receives, summary included)."""
    parsed = lines(summary)
    held = [f.text in context for f in script.facts]
    sectioned = [f for f in script.facts if f.section]
    placed = [
        any(f.text in ln.text and ln.under(f.section or "") and not _ticked(ln) for ln in parsed)
        for f in sectioned
    ]
    steps = [f for f in script.facts if f.kind == "next_step"]
    ticked = [any(f.text in ln.text and _ticked(ln) for ln in parsed) for f in steps]
    shown = stale(summary, script)
    return {
        "held": sum(held),
        "total": len(held),
        "missing": [f.text for f, hit in zip(script.facts, held, strict=True) if not hit],
        "stale": len(shown),
        "staleShown": shown,
        "inSection": sum(placed),
        "sectioned": len(sectioned),
        "misplaced": [f.text for f, hit in zip(sectioned, placed, strict=True) if not hit],
        "inSectionByKind": {
            kind: [
                sum(h for f, h in zip(sectioned, placed, strict=True) if f.kind == kind),
                sum(f.kind == kind for f in sectioned),
            ]
            for kind in sorted({f.kind for f in sectioned})
        },
        "ticked": sum(ticked),
        "steps": len(steps),
        "summaryChars": len(summary),
    }


def _ticked(line: Line) -> bool:
    return line.done or bool(TICKED.match(line.text))
