"""Whether a negation states a rule: said to the agent ("don't log tokens", "we never deploy
on Fridays") it does; inside a clause describing a thing ("a cluster we don't have",
"libraries that don't build on ARM") it does not. Words of English clauses only: a cue of
another language always states its rule."""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.words import vocabulary, word_search

#: Negations that make a rule only when addressed to the agent ("don't log tokens", "we never
#: deploy on Fridays"), not inside a clause describing a thing ("a cluster we don't have").
_NEGATION_CUES = frozenset(
    ("don't", "do not", "dont", "can't", "cannot", "never", "shouldn't", "must not", "mustn't")
)
_PRONOUNS = frozenset("we you they i he she it".split())
_RELATIVE = frozenset(("that", "which", "who"))
#: Words that open a clause: a pronoun after one is the clause's own subject.
_OPENERS = vocabulary("clause_openers")
_CLAUSE_START = re.compile(r"[,;:()\[\]—–]|\s-\s")
_WORDS_BEFORE = re.compile(r"[A-Za-z][\w'-]*")


def described(sentence: str, start: int) -> bool:
    """Whether the negation at ``start`` sits in a clause that describes a thing: after a
    relative pronoun ("libraries that don't build on ARM") or after a noun and its own
    subject ("RabbitMQ needs a cluster we don't have"); a rule says it to the agent ("don't
    log tokens", "we never deploy on Fridays", "but you can't skip CI")."""
    head = _CLAUSE_START.split(sentence[:start])[-1]
    words = [w.casefold() for w in _WORDS_BEFORE.findall(head)]
    if not words:
        return False
    if words[-1] in _RELATIVE:
        return len(words) > 1
    if words[-1] in _PRONOUNS and len(words) >= 2 and words[-2] in _RELATIVE:
        return True  # "…our cron syntax, which we never documented"
    if words[-1] in _PRONOUNS and len(words) >= 3:  # "…needs a cluster we", not "ah we"
        return words[-2] not in _OPENERS and words[-2] not in _PRONOUNS
    return False


def rule_cue(sentence: str, cues: Cues) -> str:
    """``"rule"``: a constraint cue in ``sentence`` states a rule; ``"described"``: its only
    cues are negations describing a thing (:func:`described`); ``""``: it has none."""
    text, out = sentence, ""
    for _ in range(4):
        span = cues.find("constraint", text)
        if span is None:
            return out
        said = " ".join(text[span[0] : span[1]].casefold().split())
        if said not in _NEGATION_CUES or not described(text, span[0]):
            return "rule"
        text, out = text[: span[0]] + " " * (span[1] - span[0]) + text[span[1] :], "described"
    return "rule"


#: A negation just before a cue, up to two words apart: "we can't just bump the image", "don't
#: drop --strict", "no need to remove it", "先别改成 8443", "别删".
_DENIED = re.compile(
    r"(?:\b(?:can'?t|cannot|won'?t|don'?t|do not|never|shouldn'?t|mustn'?t|not|no need to)"
    r"(?:\s+\w+){0,2}|先别|别|不要|不能|不用|不)\s*$",
    re.IGNORECASE,
)
MAX_DENIAL = 30  # characters before a cue that a negation of it stands in


def denied(text: str, at: int) -> bool:
    """Whether a negation stands right before position ``at`` of ``text`` (a cue's start):
    the cue is denied, not said ("we can't just bump …" is no change)."""
    return _DENIED.search(text[max(0, at - MAX_DENIAL) : at].rstrip()) is not None


#: A change weighed, then set aside: "we talked about X instead but that doesn't work on CI",
#: "也想过改用 X，但是在 CI 上不行" — an alternative considered, not taken. Both parts must be
#: there: "switch to pnpm, but if it doesn't work, tell me" is a change.
_WEIGHED = re.compile(
    r"\b(?:talked about|thought about|thought of|considered|looked at|discussed|was going to"
    r"|wanted to|were going to)\b|本来想|也想过|想过|考虑过|讨论过",
    re.IGNORECASE,
)
_REJECTED = re.compile(
    r"\b(?:but|though|however)\b[^.;!?]{0,12}?\b(?:that|it|this)\s+"
    r"(?:doesn'?t|does not|won'?t|will not|didn'?t|did not|can'?t|cannot)\s+work\b"
    r"|(?:但是?|不过)[^。；！？]{0,10}?(?:行不通|不行|用不了)",
    re.IGNORECASE,
)
MAX_WEIGHED = 40  # characters before a cue that the words weighing it stand in


def set_aside(text: str, start: int, end: int) -> str | None:
    """What ``text`` picks after setting aside the change whose cue spans ``start``–``end``
    ("we looked at X instead, but that won't work, so Y it is": "Y it is"; "" when nothing),
    or ``None`` when words before the cue do not weigh it or nothing after rejects it."""
    weighed = _WEIGHED.search(text, max(0, start - MAX_WEIGHED), start)
    if weighed is None or _BREAK.search(text, weighed.end(), start):
        return None  # "I thought about it and we should move to X": the change is taken
    rejected = _REJECTED.search(text, end)
    if rejected is None:
        return None
    then = _THEN.search(text, rejected.end())
    return text[then.end() :].strip(" .。") if then else ""


def agrees_with_pick(text: str, old: str, cues: Cues) -> bool:
    """Whether ``text`` sets a change aside and picks what ``old`` names ("… automatic signing
    instead but that doesn't work on CI, so manual signing via match it is" keeps the rule
    on match; "… so yarn it is" replaces "Use npm")."""
    span = cues.find("change", text)
    picked = _SETTLED.search(set_aside(text, *span) or "") if span is not None else None
    name = picked.group(1) if picked else ""  # "manual signing via match it is": match
    return bool(name) and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", old, re.I) is not None


_THEN = re.compile(r"\b(?:so|then)\b|所以", re.IGNORECASE)
#: A pick said as settled: "X it is", "X it stays" — its last word names what is picked.
_SETTLED = re.compile(r"([A-Za-z][\w.+-]+)\s+it\s+(?:is|stays)\b", re.IGNORECASE)
#: What parts the weighing words from the change they would weigh: a clause break, "and".
_BREAK = re.compile(r"[,;:，；：。]|\b(?:and|but|so)\b|所以|但", re.IGNORECASE)


#: What would happen otherwise: "…, 不然有人自己改成 100 倍", "or else someone bumps it to 9".
_OTHERWISE = word_search("otherwise_leads")
_CLAUSE_BREAK = re.compile(r"[,;:.!?，；：。！？]")


def otherwise(sentence: str, at: int) -> bool:
    """Whether the cue at ``at`` stands in a clause that says what would happen otherwise:
    no change asked for."""
    leads = list(_OTHERWISE.finditer(sentence, 0, at))
    if not leads or _CLAUSE_BREAK.search(sentence, leads[-1].end(), at):
        return False
    before = _CLAUSE_BREAK.sub(" ", sentence[: leads[-1].start()]).strip()
    return bool(before) and not _SUGGESTED.search(sentence)  # "要不然改用 redis 吧": how about


#: A sentence said as a suggestion: "…吧", "…?" — its 要不然 is "how about", no "otherwise".
_SUGGESTED = re.compile(r"(?:吧|[?？])\W*$")


__all__ = ["agrees_with_pick", "denied", "described", "otherwise", "rule_cue", "set_aside"]
