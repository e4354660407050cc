"""A next step named inside a sentence: "Once X is back, the next step is to…", "等他跑完之后，
下一步是…". The ``next_step`` cues count only where a sentence opens; a sentence that names
its next step further in states one too (and a step waiting for someone else is not done)."""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.words import alternation, word_search

_LATER = alternation("later_times")

#: "the next step is", "our next steps are", "next step:", "下一步是", "接下来要"…; "write the
#: notes next, then …", "… next." closing the sentence; "tomorrow: wire …", "明天：…" (a later
#: time as a label); "明天早上第一件事是…"; "先 X，然后 Y" (a plan in order); "迁移完成后，…",
#: "when the migration is done, …" (what follows the current task).
_NEXT_INSIDE = re.compile(
    r"\b(?:the|our|my|your|a|one)\s+next\s+(?:steps?|thing|task|move)\s+"
    r"(?:is|are|will\s+be|would\s+be|should\s+be)\b"
    r"|\bnext\s+up\s+is\b|\bnext\s+steps?\s*[:：]"
    r"|\bnext\s+steps?\s+(?:is|are|will\s+be)\b"
    r"|\s\bnext\s*(?:,\s*then\b|[.!]?\s*$)"
    r"|^\W*(?:" + _LATER + r")\s*[:：]"
    r"|下一步(?:是|就是|要|得|再|先|：|:)"
    r"|接下来(?:是|就是|要|得|再)|第一件事(?:是|就是)|先.{1,40}然后"
    r"|^[^，。,.]{0,20}(?:完成|做完|搞定|弄完|跑完)(?:之后|以后|后)\s*[，,]"
    r"|^\W*(?:when|once)\s+[^,.]{1,40}\s+(?:is|are|'s)\s+(?:done|finished|merged)\s*,",
    re.IGNORECASE,
)


def names_next_step(sentence: str) -> bool:
    """Whether ``sentence`` says what the next step is anywhere in it."""
    return _NEXT_INSIDE.search(sentence) is not None


#: "next bit is annoying, sorry this is long", "next thing was weird": what the message goes
#: on to say, not a step to take.
_ANNOUNCED = re.compile(
    r"^\W*(?:(?:ok|so|and|also)\s+)*next\s+(?:bit|thing|part|point|question|issue|topic|one)"
    r"\s+(?:was\b|(?:is|'s)\s+(?:a bit\s+|kind of\s+|really\s+|so\s+)?"
    r"(?:annoying|messy|weird|long|tricky|ugly|boring|painful|awkward|a mess)\b)",
    re.IGNORECASE,
)


def announces_more(sentence: str) -> bool:
    """Whether ``sentence`` only announces what the message says next (see above)."""
    return _ANNOUNCED.match(sentence) is not None


_WEAK_OPENER = word_search("weak_step_openers")
#: A first person right after the opener: what the user did or says, not a step to take.
_NARRATOR = re.compile(r"^[\s,，]*(?:(?:I|we|I'm|we're|I've|we've|ich|wir|yo|je|nous)\b|我)", re.I)
_FIRST_CLAUSE = re.compile(r"[,;，；。]")


def _after_opener(sentence: str) -> str | None:
    """What ``sentence`` says after a word opening it that only says what comes after
    ("然后…", "then …", ``weak_step_openers``); ``None`` when it opens with no such word."""
    found = _WEAK_OPENER.search(sentence)
    if found is None or sentence[: found.start()].strip(" ,，.。"):
        return None
    return sentence[found.end() :]


def narrated(sentence: str, cues: Cues) -> bool:
    """Whether ``sentence`` opens with "then"/然后/luego and goes on in the first person
    ("然后我先说清楚啊，…不要用 ROS", "then I moved the PIR to GPIO27") or states a rule in its
    first clause ("then never push to main", "luego no uses polling"): what holds, no step to
    take ("Then add a test, don't mock the DB" is a step)."""
    rest = _after_opener(sentence)
    if rest is None:
        return False
    first = _FIRST_CLAUSE.split(rest.lstrip(" ,，"), maxsplit=1)[0]
    return _NARRATOR.match(rest) is not None or cues.has("constraint", first)


def follow_steps(kinds: list[str], texts: list[str]) -> list[str]:
    """The kinds of one message's sentences, with each request after a next step that
    asks nothing a next step too ("下一步：发布到 registry。发布前先跟 @lina 确认一下。",
    "Next: cut the release. Tag it from main."): the message lists what comes next. Not
    after a step opened only by "then"/然后, which a long message says of much besides."""
    out, step = [], False
    for kind, text in zip(kinds, texts, strict=True):
        if step and kind == "request" and not text.rstrip().endswith(("?", "？")):
            kind = "next_step"
        step = step or (kind == "next_step" and _after_opener(text) is None)
        out.append(kind)
    return out


__all__ = ["announces_more", "follow_steps", "names_next_step", "narrated"]
