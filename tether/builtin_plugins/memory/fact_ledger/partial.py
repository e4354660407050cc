"""A take-back narrowed by a qualifier ends part of a rule, not the rule: "coverage is no
longer needed on PR builds, only on main" after "Upload coverage to Codecov on every build",
"we no longer need Redis for sessions" after "Use Redis for sessions and caching".

The take-back's qualifier ("for …", "on …", "in …", "except …", "during …"), in the clause
of its cue (not "scratch the 45 min, product wants 2 hours for the cart expiry"), is about the
same thing as the rule's and narrower: it adds a word the rule's does not say ("PR builds"
of "every build"), or the rule's names more ("sessions and caching"). The rule then stays in
force beside the newer, narrower one (both are shown; the newer one comes later). A take-back
of the whole ("No more Slack messages on deploy" after "… on each deploy") still ends it; one
that says what stays ("…, only for the daily rollups") never does."""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.concepts import every_part
from tether.builtin_plugins.memory.fact_ledger.cues import default_cues
from tether.builtin_plugins.memory.fact_ledger.words import (
    FUNCTION_WORDS,
    alternation,
    negated,
    stemmed,
    vocabulary,
    words_of,
)

_PREPOSITIONS = "for|on|in|except|during"
_QUALIFIER = re.compile(rf"\b({_PREPOSITIONS})\s+((?:[\w.+#/-]+\s*){{1,3}})", re.IGNORECASE)
#: What the take-back leaves in force, said with it: "only for …", "except …", "只…", "仅…".
_EXCEPT = re.compile(r"[,;，；]\s*(?:but\s+)?(?:only|except|still)\b|[，；]\s*(?:只|仅|还是)", re.I)
_END = re.compile(r"[,;.:!?]|\s(?:to|on|in|at|by|with|from)\s", re.IGNORECASE)


def _content(text: str) -> set[str]:
    return stemmed(words_of(text) - FUNCTION_WORDS)


#: A take-back that opens with the thing it is about: "窗帘电机那个…" (an English "as for the
#: region, …" names the rule's own key as often as another thing: not read).
_TOPIC = re.compile(r"^\W*([\u3400-\u9fff\w]{2,12}?)(?:那个|那边|那块|的话)")


def other_topic(new: str, old: str) -> bool:
    """Whether ``new`` opens with a topic ``old`` does not name: "窗帘电机那个我们就用 Zigbee
    直连，不走 MQTT 了" is about the curtain motor, not "MQTT broker 在 mqtt.home.lan"."""
    topic = _TOPIC.match(new)
    return bool(topic) and not _content(topic.group(1)) & _content(old)


#: A word setting a name apart just before it: "uncompressed" of "uncompressed vcf", "压缩" of
#: "未压缩的 vcf" (not "plain", "daily": those still name the thing).
_MODIFIER = re.compile(r"(?:\b((?:un|non-?)[a-z][\w-]{2,})|([\u3400-\u9fff]{2})的)\s*$", re.I)


def qualified_elsewhere(new: str, name: str, old: str) -> bool:
    """Whether ``new`` qualifies ``name`` by a word ``old`` does not say: "不再输出未压缩的
    vcf" (no more uncompressed vcf) changes nothing of a rule on "raw VCF"."""
    at = new.casefold().find(name.casefold())
    found = _MODIFIER.search(new[:at]) if at > 0 else None
    if found is None:
        return False
    word = (found.group(1) or found.group(2)).casefold()
    return word not in FUNCTION_WORDS and word not in old.casefold()


_CLAUSE_END = re.compile(r"[,;!?，；。！？]|\.(?:\s|$)")  # not a dash: "… - just for X"


def _take_back_clause(text: str) -> str:
    """The clause of ``text`` holding its take-back cue ("Scratch the 45 min, product wants 2
    hours for the cart expiry": the first); all of it without one."""
    cues = default_cues()
    span = cues.find("revoke", text) or cues.find("discard", text)
    if span is None:
        return text
    starts = [m.end() for m in _CLAUSE_END.finditer(text, 0, span[0])]
    end = _CLAUSE_END.search(text, span[1])
    return text[starts[-1] if starts else 0 : end.start() if end else len(text)]


def _right_after_cue(clause: str, at: int) -> bool:
    """Whether the qualifier at ``at`` follows a cue opening ``clause`` ("never mind on the
    sizes"): what is taken back (not "we don't need the VPN anymore on staging")."""
    span = default_cues().find("revoke", clause)
    if span is None or re.sub(r"[\W_]|\b(?:ok|oh|and|also|so)\b", "", clause[: span[0]]):
        return False
    return not clause[span[1] : at].strip()


def partial_take_back(new: str, old: str) -> bool:
    """Whether the take-back ``new`` is narrowed by a qualifier to part of what ``old``
    says (see the module), or is about another thing (:func:`other_topic`)."""
    said = _content(old)
    if other_topic(new, old):
        return True
    kept = _EXCEPT.search(new)
    if kept and _content(new) & said:  # "…no longer needed for the raw readings, only for the
        # daily rollups"; of a rule said "everywhere", what stays names another part
        return not every_part(old) or bool(_content(new[kept.end() :]) & said)
    clause = _take_back_clause(new)
    found = _QUALIFIER.search(clause)
    if found is None or _right_after_cue(clause, found.start()):
        return False  # "nvm on the textures size": what is taken back, not a narrowing
    named = _content(found.group(2))
    if not named & said:
        return False  # a qualifier about something the rule does not say
    slot = re.search(rf"\b{found.group(1)}\s+(.{{1,60}})", old, re.IGNORECASE)
    if slot is None:
        return bool(named - said)
    theirs = _content(_END.split(slot.group(1))[0])
    return bool(named - theirs and named & theirs) or bool(theirs - named and theirs & named)


_REMOVING = frozenset("drop scrap remove delete ditch kill get".split())
#: Words naming a rule or a part of the work itself ("scrap the freeze", "the friday thing").
_RULE_NOUNS = vocabulary("rule_nouns")
#: What a ban forbids having ("never leave", "don't add", "no …"), not doing ("never push").
_NEVER = r"never|don'?t|do not|must not|mustn'?t|shouldn'?t"
_HAVING_BAN = re.compile(
    rf"\b(?:no|(?:{_NEVER})\s+(?:{alternation('having_verbs')}))\b", re.IGNORECASE
)


def agrees_with_ban(new: str, old: str) -> bool:
    """Whether the take-back ``new`` removes a thing the prohibition ``old`` bans: "drop the
    prints and use logging" after "Never leave debug prints in commits" keeps the ban (not
    "scrap the print ban", nor "no longer", which takes a statement back)."""
    if not negated(old) or not _HAVING_BAN.search(old):
        return False  # "Don't touch the legacy module": dropping it ends the ban
    cues = default_cues()
    span = cues.find("revoke", new) or cues.find("discard", new)
    if span is None or new[span[0] : span[1]].split()[0].casefold() not in _REMOVING:
        return False
    object_ = _CLAUSE_END.split(new[span[1] :])[0]
    if re.search(r"\bno-\w", object_, re.IGNORECASE):
        return False  # "drop the no-lodash rule": the ban itself
    named = []
    for word in (w.casefold() for w in re.findall(r"[A-Za-z][\w'-]*", object_)):
        if word in FUNCTION_WORDS and named:
            break  # "the prints and use logging": the phrase is "prints"
        named.append(word)
    head = next((w for w in reversed(named) if w not in FUNCTION_WORDS), "")
    if not head or set(named) & _RULE_NOUNS:
        return False
    if re.search(rf"\bwithout\b[^.;]*\b{re.escape(head[:-1])}", old, re.IGNORECASE):
        return False  # "don't ship without release notes": a requirement of what is dropped
    return bool(stemmed({head}) & _content(old))  # the thing banned, not "the PII redaction"


__all__ = ["agrees_with_ban", "other_topic", "partial_take_back", "qualified_elsewhere"]
