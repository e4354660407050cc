"""Statements no cue classifies that the summary still keeps: recall first.

A user sentence that is no rule, decision or next step is a request, shown under ``Done``
(history, never current). Most requests ask for work and may go once done; but a statement
that carries a value ("Retries happen 3 times with jitter.", "the CDN caches them for 7
days") is a fact of the project though it has no cue word. :func:`noted` tells them apart,
and the summary gate keeps those whole (under ``Done``: a value there is never shown as
current, so a change nobody recognised cannot make it stale).
"""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.keyvalue import subject_values, values_said
from tether.builtin_plugins.memory.fact_ledger.terse import terse_statement
from tether.builtin_plugins.memory.fact_ledger.words import WIDE

MAX_NOTED = 300  # characters: longer sentences are pastes or lists, not one statement
MIN_WORDS = 3
#: "Debug builds are signed with…": a verb-looking first word that is a statement's subject.
_DECLARATIVE = re.compile(
    r"^\W*[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*)?\s+(?:is|are|was|were|has|have|gets?|stays?"
    r"|lives?|runs?|goes|go|happens?|lands?|caches?|comes?)\b",
    re.IGNORECASE,
)
LABEL = re.compile(r"^[^:：\s]{1,12}(?:\s+\w{1,6})?[:：]\s*")  # "Turn 8: ", "问题："
#: Code, a directive or a JSON object, not prose: '@tool bash {"command": …}', "$ make".
CODE = re.compile(r"\{(?![0-9A-Fa-f]{8}-)|(?<![0-9A-Fa-f]{12})\}|^[@$>#/\\|<`]")  # a {GUID} is none
_QUANTITY = re.compile(r"^[-+]?\d[\d.,:]*\s?(?:%|[^\W\d_]+)$")  # a number and its unit
_BARE = re.compile(r"^[-+]?[\d.,:]+$")


#: A reason given with what is asked: a preference told by why, not a task to tick off.
_REASONED = re.compile(r"\b(?:so|because|since|as long as)\b|因为|所以|因此|由于|毕竟", re.I)
_OPENING = 3  # words: a task verb this early makes the sentence a request for work
MAX_STANDING_WORDS = 14
#: How a kind of thing is to be done, not one piece of work: a verb, what it applies to (a
#: pronoun or a plural: "them", "all the dates", "timestamps") and the manner — "show them in
#: utc with a Z", "write the ids as hex", "round prices to two decimals"; in Chinese an
#: "all / uniformly" word before how ("金额都用两位小数", "日志统一写成 JSON").
_STANDING = re.compile(
    r"^\W*(?:please\s+|pls\s+|just\s+|and\s+)?[a-z]+\s+"
    r"(?:them|those|these|everything|each one|all(?:\s+of\s+them)?|(?:(?:all|every|each|the)\s+)?"
    r"(?:[a-z]+\s+)?[a-z]+s)\s+(?:in|as|with|without|using|to|by|per|under|into)\s+\S",
    re.IGNORECASE,
)
#: The same with a pronoun for what it applies to, after an opening ("ok, and show them in
#: utc", "the dates look odd, print them as ISO").
_STANDING_LATER = re.compile(
    r"(?:^|[,;:—–-]\s*|\b(?:and|also|so|then|oh|ok|okay|just|please|pls)\s+)[a-z]+\s+"
    r"(?:them|those|these)\s+(?:in|as|with|without|using|to|by|per|under|into)\s+\S",
    re.IGNORECASE,
)
_STANDING_WIDE = re.compile(
    r"(?:都|统一|一律|一概|全部|始终|一直)(?:用|以|按|写|显示|放|保留|改成|转成)"
)


def standing(text: str) -> bool:
    """A short instruction that says how a kind of thing is done (see :data:`_STANDING`): a
    preference said as a request, kept like one that carries a value."""
    body = LABEL.sub("", text.strip())
    if body.endswith(("?", "？")) or len(body) > MAX_NOTED:
        return False
    if not WIDE.search(body):
        if len(body.split()) > MAX_STANDING_WORDS * 2:
            return False
        return bool(_STANDING_LATER.search(body)) or (
            len(body.split()) <= MAX_STANDING_WORDS and bool(_STANDING.match(body))
        )
    return _STANDING_WIDE.search(body) is not None


def _opens_with_task(body: str, cues: Cues) -> bool:
    opening = " ".join(body.split()[:_OPENING]) if body.isascii() else body[:4]
    return cues.has("task", opening)


def noted(text: str, cues: Cues) -> bool:
    """Whether a request states a fact with a value (see the module): prose (not code, not a
    directive), not a question, a few words and a value that is more than a bare number
    ("Turn 8"); a task ("Start with tests/data/huge.png"; a label such as "Turn 8:" aside)
    only with a number and its unit ("make tokens last 60m")."""
    body = LABEL.sub("", text.strip())
    if len(body) > MAX_NOTED or body.endswith(("?", "？")) or CODE.search(body):
        return False
    size = len(WIDE.findall(body)) // 2 or len(body.split())
    if size < MIN_WORDS:
        return False
    if standing(body):
        return True  # "show them in utc with a Z": how, not what to do once
    said = values_said(body)
    if _REASONED.search(body) and not _opens_with_task(body, cues):
        return True  # "the guys mostly use the german locale so put de strings next to en"
    if cues.has("task", body) and not _DECLARATIVE.match(body):
        return any(_QUANTITY.match(value) for value in said)  # "make tokens last 60m"
    if any(not _BARE.match(value) for value in said):
        return True  # a unit, an identifier, a flag: "6 processes per pod", "orders-v2"
    if terse_statement(body, cues):
        return True  # how something is, no value: "the export is still semicolon separated"
    return bool(subject_values(body, cues))  # a number of a named thing: "JPEG quality 82"


__all__ = ["CODE", "LABEL", "noted", "standing"]
