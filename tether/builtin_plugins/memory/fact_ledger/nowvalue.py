"""What a thing is now, said as its new value: "the partition is gpu-h100-batch now", "the
slack channel is #billing-db-alerts now", "new bucket is s3://ops-pgbackups-ca".

A sentence with a ``current`` cue (now, new, currently) that says "<key> is <value>" (or
"lives under", "sits in" — "modules live under infra/modules/network now") — the
value written with a digit or a separator — gives its key a new value. An earlier text names
the old one when a token of the same kind (a URL of the same scheme, a #channel, an @handle,
a path, a hyphenated name with a digit, a dotted one) stands within a few words of one of the
key's words and is not the new value: "submit to the gpu-a100-short partition", "alerts go to
#dba-pager in slack". The rule saying it is replaced (:mod:`.samekey`); in the goal it is
named in the goal's change note (:func:`~.keychange.goal_changes`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.hosts import moved
from tether.builtin_plugins.memory.fact_ledger.words import CLAUSES, STOP, memo_per_cues, stemmed

#: A value as written: a name, a path, a URL, a #channel, an @handle, a $variable.
_VALUE = r"(?:[#@$~]|\.{0,2}/)?\w[\w#@$./:+-]*[\w/]"
_SAID = re.compile(
    r"(?P<key>(?:[A-Za-z][\w-]*\s+){0,2}[A-Za-z][\w-]*)"
    r"(?:\s+(?:is|are|(?:lives?|sits?)\s+(?:in|under|at|on))|['’]s)\s+(?:now\s+)?"
    rf"[`\"']?(?P<value>{_VALUE})",
    re.IGNORECASE,
)
#: A key and its value said after the first one: "new bucket is s3://x, region ca-central-1".
_ALSO = re.compile(rf"[,;]\s*(?P<key>[A-Za-z][\w-]*)\s+(?P<value>{_VALUE})")
#: A rename of a thing named before it: "that feature flag, rename it to wms_offline_queue",
#: "rename the wandb project, …, call it support-ft-2024q3", "rename the board to soilprobe_v2".
_RENAMED = re.compile(
    r"(?P<key>(?:[A-Za-z][\w-]*\s+){0,2}[A-Za-z][\w-]*)[,:]?\s+rename\s+it\s+to\s+"
    r"[`\"']?(?P<value>\w[\w./:+-]*\w)"
    r"|\brename\s+(?:the\s+|our\s+)?(?P<key2>(?:[A-Za-z][\w-]*\s+)?[A-Za-z][\w-]*)\b[^.;]{0,80}?"
    r"\bcall\s+it\s+[`\"']?(?P<value2>\w[\w./:+-]*\w)"
    r"|\brename\s+(?:the\s+|our\s+)?(?P<key3>(?:[A-Za-z][\w-]*\s+)?[A-Za-z][\w-]*)\s+to\s+"
    r"[`\"']?(?P<value3>\w[\w./:+-]*\w)",
    re.IGNORECASE,
)
_TOKEN = re.compile(rf"{_VALUE}|[A-Za-z]+")
NEAR = 3  # words between a key word and the old value
_NOT_CURRENT = frozenset({"old", "previous", "former", "latest", "upstream"})
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+")


_NUMBERED = re.compile(r"[A-Za-z]{2,8}\d{1,4}")


def value_kind(token: str) -> str:
    """The kind of a value token (see the module); "" for a plain word or number."""
    if "://" in token:
        return "url:" + token.split("://", 1)[0].casefold()
    if token[0] in "#@$":
        return token[0]
    if "/" in token:
        return "path"
    if "_" in token.strip("_") and token.islower():
        return "snake"  # "scan_offline_v1", "wms_offline_queue"
    if _NUMBERED.fullmatch(token):
        return "numbered"  # "PG15", "gp3", "SF9": a name in one of its numbered forms
    if not any(ch.isdigit() for ch in token):
        return "slug" if token.count("-") >= 2 and token.islower() else ""  # "ticket-ft-sweeps"
    if "-" in token:
        return "slug"
    return "dotted" if "." in token else ""


def old_kinds(text: str) -> set[str]:
    """The kinds of the values ``text`` names (see :func:`value_kind`)."""
    return {value_kind(m.group(0).rstrip(".")) for m in _TOKEN.finditer(text)} - {""}


@memo_per_cues
def now_values(text: str, cues: Cues) -> list[tuple[set[str], str]]:
    """``(key words, new value)`` for each "<key> is <value>" ``text`` says with a current
    cue, and each "<key>, rename it to <value>"; a location said of "it" ("the staging api
    moved, it's https://…") has no key words."""
    matches = list(_RENAMED.finditer(text))
    if cues.has("current", text):
        matches += [*_SAID.finditer(text), *_ALSO.finditer(text)]
    out = []
    for match in matches:
        said, value = _key_and_value(match)
        value = value.rstrip(".")
        key = {w for w in stemmed({w.casefold() for w in said.split()}) if w}
        if key & _NOT_CURRENT:
            continue  # "the old channel is #x-archive now": what the old one became
        key -= STOP | {"new", "now", "it", "that", "this", "one"}
        if value_kind(value) and (key or value_kind(value).startswith("url:")):
            out.append((key, value))
    return out


def _key_and_value(match: re.Match[str]) -> tuple[str, str]:
    """The key and the value a match of :data:`_SAID`, :data:`_ALSO` or :data:`_RENAMED`
    names (the rename pattern has three ways to say them)."""
    groups = match.groupdict()
    said = groups["key"] or groups.get("key2") or groups.get("key3") or ""
    return said, groups["value"] or groups.get("value2") or groups.get("value3") or ""


@lru_cache(maxsize=1024)
def plain_renames(text: str) -> tuple[tuple[frozenset[str], str], ...]:
    """``(key words, new name)`` for each rename of ``text`` to a plain lowercase word
    ("rename mod id to copperpipes"): its old name is the one quoted right after the key
    (read once per text: every earlier rule is compared with it)."""
    out = []
    for match in _RENAMED.finditer(text):
        said, value = _key_and_value(match)
        key = stemmed({w.casefold() for w in said.split()}) - STOP - {"new", "it", "that"}
        if key and value.isalpha() and value.islower():
            out.append((frozenset(key), value))
    return tuple(out)


#: A quoted name and the words before it, past "is", ":", "called": "mod id is `copperworks`".
_QUOTED_AFTER = re.compile(
    r"((?:[A-Za-z][\w-]*\W+){1,4}?)(?:(?:is|are|called|named|=|:)\s+)?[`'\"]([A-Za-z][\w.-]*\w)[`'\"]"
)


def renamed_old(new: str, old: str) -> list[tuple[str, str]]:
    """``(old name, new name)`` for a plain rename of ``new`` (:func:`plain_renames`): the
    name ``old`` quotes right after every key word, or of several, the one ``new`` names
    too ("rename the new module to motor, engine is taken")."""
    out = []
    for key, value in plain_renames(new):
        found = []
        for match in _QUOTED_AFTER.finditer(old):
            words = [w.casefold() for w in re.findall(r"[A-Za-z][\w-]*", match.group(1))]
            if words and key <= stemmed(set(words)) and stemmed({words[-1]}) <= key:
                found.append(match.group(2))
        found = [f for f in dict.fromkeys(found) if f != value]
        if len(found) > 1:
            found = [f for f in found if re.search(rf"(?<![\w.-]){re.escape(f)}(?![\w-])", new)]
        out += [(found[0], value)] if len(found) == 1 else []
    return out


def old_values(text: str, key: set[str], new: str) -> list[str]:
    """The tokens of ``text`` of ``new``'s kind standing near a word of ``key`` (not ``new``
    itself, which ``text`` then already says)."""
    if new in text:
        return []
    return [o for part in CLAUSES.split(text) for o in _near_key(part, key, new)]


def _near_key(text: str, key: set[str], new: str) -> list[str]:
    tokens = [m.group(0).rstrip(".") for m in _TOKEN.finditer(text)]
    words = [next(iter(stemmed({t.casefold()})), "") for t in tokens]
    kind, out = value_kind(new), []
    for at, token in enumerate(tokens):
        if (value_kind(token) != kind and not _same_stem(token, new)) or token in out:
            continue
        near = words[max(0, at - NEAR) : at + NEAR + 1]
        if key & set(near):
            out.append(token)
    return out


def _same_stem(token: str, new: str) -> bool:
    """Two hyphenated names with one first part ("ci-large" / "ci-xl-arm64"): one family,
    whatever else each holds."""
    mine, theirs = token.split("-", 1), new.split("-", 1)
    return len(mine) == len(theirs) == 2 and len(mine[0]) >= 2 and mine[0] == theirs[0]


def now_pairs(new: str, old: str, cues: Cues | None) -> list[tuple[str, str]]:
    """``(old value, new value)`` for what ``new`` says a key of ``old`` is now, and for the
    one location of a kind ``old`` names that ``new``, saying what holds now, moves
    ("new bucket is s3://ops-pgbackups-ca" after "writing to s3://ops-pgbackups-eu")."""
    if cues is None:
        return []
    said = now_values(new, cues)
    out = [(o, value) for key, value in said for o in old_values(old, key, value) if o not in new]
    out += renamed_old(new, old)  # "rename mod id to copperpipes, copperworks is taken"
    for _key, value in said if not out else []:  # "…, region ca-central-1" after "eu-west-3"
        form = _form(value)
        if form.count("-") + form.count(".") < 2:
            continue  # a form too plain to tell the one old value of its kind
        alike = {t for t in _tokens(old) if t != value and _form(t) == form}
        if len(alike) == 1 and _akin(next(iter(alike)), value) and next(iter(alike)) not in new:
            out.append((next(iter(alike)), value))
    if said and not out:
        for sentence in _SENTENCE_END.split(old):  # the sentence naming the old location
            theirs = _urls(sentence)
            if theirs and moved(new, sentence, cues, cued=True):
                kinds = {value_kind(o): o for o in theirs}
                out += [
                    (kinds[value_kind(n)], n)
                    for n in _urls(new)
                    if value_kind(n) in kinds and _akin(kinds[value_kind(n)], n)
                ][:1]
    return out


def _akin(old: str, new: str) -> bool:
    """A URL of one family ("s3://ops-pgbackups-eu" / "s3://ops-pgbackups-ca": the same first
    two parts of its name); any other token of the same form."""
    if "://" not in new:
        return True
    parts = [re.split(r"[-.]", t.split("://", 1)[1])[:2] for t in (old, new)]
    return parts[0] == parts[1]


def _tokens(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in _TOKEN.finditer(text)]


def _form(token: str) -> str:
    """``eu-west-3`` → ``a-a-9``: letter and digit runs as one mark each, separators kept."""
    return re.sub(r"\d+", "9", re.sub(r"[^\W\d_]+", "a", token))


def _urls(text: str) -> list[str]:
    return [m.group(0).rstrip(".") for m in _TOKEN.finditer(text) if "://" in m.group(0)]


__all__ = ["now_pairs", "now_values", "old_kinds", "old_values", "plain_renames", "value_kind"]
