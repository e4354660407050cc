"""A value said to be replaced or gone retires what names it: "Use httpx instead of aiohttp",
"stop writing to /var/log/relay.log", "statsd is gone", "port 8443, not 8080". The live rules
and requests naming the old value are replaced (their clauses about other things stay), and
so is an earlier identifier that is that value."""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.clauses import Ledger, retire_rule
from tether.builtin_plugins.memory.fact_ledger.contrast import contrasted, other_key
from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.faulted import defended
from tether.builtin_plugins.memory.fact_ledger.keeps import common_noun, named_noun, not_gone_yet
from tether.builtin_plugins.memory.fact_ledger.negation import denied
from tether.builtin_plugins.memory.fact_ledger.partial import partial_take_back
from tether.builtin_plugins.memory.fact_ledger.words import STOP, negated

_ONLY = re.compile(r"\b(?:only|just)\b(?:\s+(?:for|on|in)\b)?|\b(?:for|on|in) \w+ only\b", re.I)
_BEFORE = re.compile(r"([\w.:/@=+-]*[\w])\s*$")
_VALUE = re.compile(r"\s*(?:the\s+|using\s+)?([\w.:/@=+-]*[\w])")


#: A thing dropped by its bare name, then what is used in its place: "ditch forge and go
#: with fabric", "drop celery, use rq".
_DITCHED = re.compile(
    r"\s+([A-Za-z][\w.+#-]*[\w+#])(?:\s+and|\s*[,;])\s+(?:just\s+)?"
    r"(?:go with|use|switch to|move to|pick)\s+[`'\"]?[\w.+#-]+[`'\"]?(?P<rest>[^,;.!?]*)",
    re.IGNORECASE,
)
#: What says the pick is for one part only: "use polars for the ETL script", "on my laptop".
_SCOPED = re.compile(r"\b(?:for|on|in|inside|within|at|locally|when)\b", re.IGNORECASE)
_ONE_PART = re.compile(r"\b(?:only|just for|except)\b", re.IGNORECASE)
#: A ban said without a negation: "keep X out of", "X is banned", "avoid X", "nobody adds X".
_BAN = re.compile(
    r"\b(?:out of|banned|forbidden|not allowed|avoid|avoided|nobody|no one)\b", re.IGNORECASE
)


def _ditched(text: str, cues: Cues) -> str:
    """The bare name ``text`` drops for another (see :data:`_DITCHED`), else "": not when
    the pick is said for one part ("drop docker, use podman on my laptop")."""
    span = cues.find("discard", text)
    if span is None or denied(text, span[0]) or _SCOPE_FIRST.match(text[: span[0]]):
        return ""  # "for the nightly ETL, drop pandas": one part
    found = _DITCHED.match(text, span[1])
    if found is None or _SCOPED.search(found.group("rest")) or _ONE_PART.search(text):
        return ""
    name = found.group(1)
    return "" if name.casefold() in STOP or name.casefold() in _NO_NAMES else name


_NO_NAMES = frozenset("it that this them those these one everything all anything stuff".split())
_SCOPE_FIRST = re.compile(r"\W*(?:for|in|on|inside|within)\b", re.IGNORECASE)


def ditches(text: str, cues: Cues) -> bool:
    """Whether ``text`` drops a name for another ("drop celery, use rq"): it names the new."""
    return bool(_ditched(text, cues))


def _as_value(name: str, old: str) -> bool:
    """Whether ``old`` names ``name`` as a value it uses ("Queue jobs with celery", "forge
    1.20.1, …"), not as a word of its own ("Make sure …", "HTTP requests must …")."""
    named = re.escape(name)
    used = rf"\b(?:use|uses|using|with|via|through|on|in)\s+(?:the\s+)?{named}(?![\w-])"
    first = rf"^\W*{named}\s+v?\d"
    return re.search(f"{used}|{first}", old, re.IGNORECASE) is not None


def retire_named_gone(ledger: Ledger, fact: Fact, cues: Cues) -> list[Fact]:
    """ "Use httpx instead of aiohttp", "statsd is gone": live facts naming the old value
    are replaced."""
    value = ""
    span = cues.find("replaces", fact.text)
    if span is not None:
        named = _VALUE.match(fact.text, span[1])
        value = named.group(1) if named else ""
    else:
        span = cues.find("gone", fact.text)
        if span is not None and (not_gone_yet(fact.text, span[1]) or defended(fact.text)):
            return []  # "the 502 goes away after a restart", "… keep it until then"
        if span is not None:
            before = _BEFORE.search(fact.text[: span[0]])
            value = before.group(1) if before else ""
            if before is not None and common_noun(fact.text, before.end()):
                value = named_noun(fact.text, before.end())  # "the nginx ingress is gone"
                if not value:
                    return []  # "now that the app is dead": not every "app"
    ditched = "" if value or span is not None else _ditched(fact.text, cues)
    value = value or ditched
    contrast = not value
    value = value or contrasted(fact.text)  # "on the 3rd, not the 1st"
    if len(value) < 2 or value.casefold() in STOP or not value.isascii():
        return []
    pattern = re.compile(r"(?<![\w.-])" + re.escape(value) + r"(?![\w-]|\.\w)", re.IGNORECASE)
    out = []
    cue = fact.text[span[0] : span[1]].casefold() if span is not None else ""
    verb = cue.split()[1][:3] if cue.startswith("stop ") else ""  # "stop logging to": "log"
    if verb and span is not None and not_gone_yet(fact.text, span[1]):
        return []  # "stop sending to X for now until the new one is up"
    kinds = ("constraint", "decision") if verb or ditched else ("constraint", "decision", "request")
    users = [o for o in ledger.live(*kinds) if _as_value(value, o.text)] if ditched else []
    if ditched and len(users) != 1:
        return []  # "drop email, use slack" of alerts and invoices by email: which one?
    for old in ledger.live(*kinds):  # a request is not split: "write logs to X and …"
        if verb and (partial_take_back(fact.text, old.text) or _ONLY.search(fact.text)):
            continue  # "stop sending to Sentry for the staging env only"
        if verb and not re.search(rf"\b{verb}|\bgo(?:es)? (?:to|into)\b", old.text, re.I):
            continue  # "stop logging to stdout" ends no "print the summary to stdout"
        if old is fact or not pattern.search(old.text):
            continue  # only a rule naming the old value (checked first: it is cheap)
        if ditched and (old is not users[0] or negated(old.text) or _BAN.search(old.text)):
            continue  # "drop pandas, use polars": no ban on pandas ends
        if contrast and other_key(fact.text, old.text, value, cues):
            continue  # "timeout 30s, not 10s" is no change of "a 10s backoff"
        named = (lambda c: pattern.search(c) is not None) if verb or ditched else None
        retire_rule(ledger, old, fact, cues, changes=named)  # its other clauses stay
        out.append(old)
    for old in ledger.live("identifier"):  # "stop writing to /var/log/x.log": that path too
        if old.source != fact.source and old.text.casefold() == value.casefold():
            ledger.retire(old, fact)
    return out


__all__ = ["ditches", "retire_named_gone"]
