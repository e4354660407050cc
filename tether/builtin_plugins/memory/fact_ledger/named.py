"""The one earlier fact a change names (see :mod:`.supersede`): "Bump Postgres to 17", "not
use Redis anymore", "drop --legacy-peer-deps"; with a take-back cue any word of its clause
("not bother with gzip anymore"). A name that is where the change goes ("switch … to Pulumi
Cloud") names no fact it replaces."""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.partial import qualified_elsewhere
from tether.builtin_plugins.memory.fact_ledger.slots import slots
from tether.builtin_plugins.memory.fact_ledger.words import (
    CLAUSE_ENDS,
    CLAUSES,
    FUNCTION_WORDS,
    word_root,
    word_search,
)

#: A capitalised, dotted or hyphenated name: "Postgres", "SQLite", "pg-bouncer", "k8s.io".
#: A CJK character beside one is no part of it ("然后Sentry不再用了" names Sentry): ASCII words.
NAME = re.compile(
    r"(?<![\w.-])(?:[A-Z][a-z]+[A-Z]?\w*|[a-z]+[.-][a-z][\w.-]*|[A-Z]{2,}\w*)(?![\w-])",
    re.ASCII,
)
#: A flag or an environment variable: "--offline", "-O2", "NODE_ENV".
FLAG_OR_VAR = re.compile(
    r"(?<![\w-])--?[A-Za-z][\w-]+|(?<![\w$])[A-Z][A-Z0-9]*_[A-Z0-9_]+", re.ASCII
)


_TO = re.compile(r"(?:\b(?:to|onto|into)\s+(?:the\s+|a\s+)?|换成|改用|改为|改成|切到)\s*$", re.I)


def _destination(text: str, name: str) -> bool:
    """Whether ``name`` is where ``text`` switches to ("switch the state backend to Pulumi
    Cloud"): an earlier fact naming it ("use pulumi import for the VPC") is not replaced."""
    at = text.find(name)
    return at > 0 and _TO.search(text[:at]) is not None


_NEXT_WORD = re.compile(r"[ \t]+([A-Za-z][a-z-]+)\b")


def _noun_after(text: str, name: str) -> str:
    """The word right after the plain word ``name`` in ``text`` when it goes on its noun
    phrase ("billing" of "the billing report"), else ""."""
    at = text.casefold().find(name.casefold())
    found = _NEXT_WORD.match(text, at + len(name)) if at >= 0 else None
    word = found.group(1) if found else ""
    return word if len(word) > 2 and word.casefold() not in FUNCTION_WORDS else ""


def _tails(text: str) -> str:
    """The last parts of ``text``'s CamelCase names: "Keepalive" of "PersistentKeepalive",
    which a take-back of "the keepalive" names (not "the persistent volume")."""
    return " ".join(m.group(1) for m in _CAMEL_TAIL.finditer(text))


_CAMEL_TAIL = re.compile(r"(?<![\w-])[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)*([A-Z][a-z0-9]+)(?![\w-])")


def _names_part(pattern: re.Pattern[str], text: str, name: str, old: str) -> bool:
    """Whether ``old`` names ``name`` (``pattern``), or, said alone in ``text`` (no noun of
    its own after it: not "the connections dashboard"), as the tail of a CamelCase name."""
    if pattern.search(old):
        return True
    return not _noun_after(text, name) and pattern.search(_tails(old)) is not None


def _either_number(word: str) -> str:
    """A pattern for a plain word in the singular or the plural ("no longer doing coupons"
    names "a coupon field")."""
    lower = word.casefold()
    if lower.endswith("s") and not lower.endswith("ss") and len(lower) > 3:
        return re.escape(word[:-1]) + "s?"
    return re.escape(word) + "(?:s)?"


def named_alike(
    fact: Fact, text: str, rules: list[Fact], *, any_word: bool = False
) -> tuple[float, Fact] | None:
    """With a change cue and no look-alike: the one earlier fact that names the same
    thing (a capitalized or dotted name: "Bump Postgres to 17", "not use Redis anymore";
    with a revoke cue any word of 3+ letters: "not bother with gzip anymore")."""
    names = NAME.findall(text)
    names += [m.group(0) for m in FLAG_OR_VAR.finditer(text) if m.group(0) not in names]
    proper = len(names)  # the names proper; with a take-back cue, any word after them
    if any_word:  # a plain word of the cue's own clause, not of the remark after it
        own = CLAUSES.split(text, maxsplit=1)[0]  # ("drop the X, marketing no longer wants it")
        words = re.findall(r"(?<![\w'])[A-Za-z][\w.-]{2,}(?![\w'])", own)
        words = [w.rstrip(".-") for w in words]  # "it." ends a sentence: no word of 3 letters
        names += [w for w in words if len(w) > 2 and w not in names]
    for index, name in enumerate(names):
        if name.casefold() in FUNCTION_WORDS or _destination(fact.text, name):
            continue
        head = r"(?<![\w.-])" if name[:1].isalnum() else r"(?<![\w.])"
        body = re.escape(name) if index < proper else _either_number(name)
        pattern = re.compile(head + body + r"(?![\w-])", re.IGNORECASE | re.ASCII)
        naming = [
            old for old in rules if old is not fact and _names_part(pattern, text, name, old.text)
        ]
        if index >= proper:  # a plain word: "未压缩的 vcf" (uncompressed) is not every "VCF"
            naming = [old for old in naming if not qualified_elsewhere(text, name, old.text)]
        if len(naming) == 1:
            return (0.0, naming[0])
    return None


def _quantities(text: str, *, alone: bool = False) -> set[tuple[str, str]]:
    """``(number, unit)`` of each quantity ``text`` states ("45 min" and "45 minutes": one);
    with ``alone``, only one ending its clause ("scratch the 45 min," — not "the 45 min
    warmup wait": a quantity of another thing)."""
    out = set()
    for slot in slots(text):
        at = text.find(slot.text)
        if alone and not CLAUSE_ENDS.match(text, at + len(slot.text)):
            continue
        if slot.shape.startswith("qty:") and slot.shape != "qty:dims":
            number = re.match(r"\d+(?:\.\d+)?", slot.text)
            if number is not None:
                out.add((number.group(0), slot.shape))
    return out


def quantity_named(
    fact: Fact, text: str, rules: list[Fact], cues: Cues | None = None
) -> tuple[float, Fact] | None:
    """With a take-back cue: the one earlier fact stating a quantity ``text`` names ("scratch
    the 45 min" after "make it 45 minutes"), in whatever words it gives the unit; or the
    number the cue takes back alone ("scratch the 5," after "run 5 replicas")."""
    said = _quantities(text, alone=True)
    naming = [old for old in rules if old is not fact and said & _quantities(old.text)]
    if not said and cues is not None:
        naming = _stating_lone_number(fact, rules, cues)
    return (0.0, naming[0]) if len(naming) == 1 else None


def _stating_lone_number(fact: Fact, rules: list[Fact], cues: Cues) -> list[Fact]:
    """The rules stating the number a take-back cue of ``fact`` names alone ("scratch the 5,
    replicaCount: 2 is enough"), when a number takes its place after it (:func:`_in_place`)
    and none stands before the cue ("do 1 and 3, forget the 2": an item of a list)."""
    span = cues.find("revoke", fact.text)
    lone = _LONE_NUMBER.match(fact.text, span[1]) if span is not None else None
    if lone is None or span is None or _DIGITS.search(fact.text, 0, span[0]):
        return []
    number = re.compile(rf"(?<![\w.:/,-]){re.escape(lone.group(1))}(?![\w.:/%-]|[.,]\d)")
    after = fact.text[lone.end() :]
    found = [(old, number.search(old.text)) for old in rules if old is not fact]
    return [old for old, at in found if at and _in_place(after, old.text[at.end() :])]


_KEYED_NUMBER = re.compile(r"([A-Za-z_][\w.-]*)\s*[:=]\s*\d")
_NOUN = re.compile(r"\s*([A-Za-z]{3,})")


def _in_place(after: str, counted: str) -> bool:
    """Whether ``after`` gives a number in a rule's place: keyed by what the rule counts
    ("replicaCount: 2" for "5 replicas") or a count of it ("3 workers" for "8 workers"); not
    "1 and 3 are fine", nor "max_depth=6" for "Python 3"."""
    noun = _NOUN.match(counted)
    root = word_root(noun.group(1).casefold()) if noun else ""
    for key in _KEYED_NUMBER.finditer(after):  # "replicaCount: 2" for "5 replicas"
        if root and key.group(1).casefold().startswith(root[:5]):
            return True
    return bool(root) and re.search(rf"\d\s*{re.escape(root)}", after, re.IGNORECASE) is not None


_DIGITS = re.compile(r"\d")
#: A number a take-back cue names alone, ending its clause: "scratch the 5, …".
_LONE_NUMBER = re.compile(r"\s*(?:(?:the|that|this)\s+)?(\d+(?:\.\d+)?)(?=\s*(?:[,;.!?，；。]|$))")


#: What a take-back cue takes back, right after it: "forget pglogical", "scrap CONFIG_X".
_OBJECT = re.compile(r"\s*(?:the\s+|that\s+|about\s+)?([A-Za-z][\w.+-]*[\w+])")


def revoked_object(fact: Fact, rules: list[Fact], cues: Cues) -> tuple[float, Fact] | None:
    """The one earlier rule naming the thing a take-back cue of ``fact`` names right after
    it ("actually forget pglogical, native logical replication is enough": the rule on
    pglogical, not the one sharing the most words; "drop the keepalive": the rule on
    PersistentKeepalive); ``None`` when not exactly one does."""
    span = cues.find("revoke", fact.text)
    found = _OBJECT.match(fact.text, span[1]) if span is not None else None
    name = found.group(1) if found else ""
    if len(name) < MIN_OBJECT or name.casefold() in FUNCTION_WORDS:
        return None
    pattern = re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", re.IGNORECASE)
    naming = [
        old for old in rules if old is not fact and _names_part(pattern, fact.text, name, old.text)
    ]
    return (0.0, naming[0]) if len(naming) == 1 else None


MIN_OBJECT = 4  # letters: shorter words name no thing ("the", "it")

_VERSION_VERB = word_search("version_verbs")


def unversioned(new: str, old: str) -> bool:
    """Whether ``new`` opens with a verb that changes a version ("Bump Room", 升级 X) of a
    thing ``old`` names with no version after it: it only uses the thing, so a new version of
    it changes no rule ("…in our Room database"; not "Room 2.4.3")."""
    verb = _VERSION_VERB.match(new.lstrip())
    thing = re.match(r"\s*(?:the\s+)?([\w.+-]+)", new.lstrip()[verb.end() :]) if verb else None
    if thing is None:
        return False
    return re.search(re.escape(thing.group(1)) + r"[\s:=@v-]{0,3}\d", old, re.I) is None


_SNAKE = re.compile(r"(?<![\w.-])[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+(?![\w-])")  # utm_content


def dropped_names(text: str, cues: Cues | None) -> set[str]:
    """The identifiers (``utm_content``, ``--legacy``) the clause of a take-back cue names:
    the rule it ends must name one of them."""
    if cues is None:
        return set()
    start, end = cues.cue_span(text, ("revoke",))
    own, *after = CLAUSES.split(text[start:end], maxsplit=1)
    said = own if after and _names_anew(after[0], cues) else text[start:end]
    return {m.group(0) for m in FLAG_OR_VAR.finditer(said)} | set(_SNAKE.findall(said))


_NAMING = re.compile(r"^\W*(?:call|name|rename)\b", re.IGNORECASE)  # "call it pub_billing"
_NAMED_AS = re.compile(  # "call the publication pub_billing": a new name, "pub_" its stem
    r"\b(?:call|name|rename)\b[^,.;:!?]{0,40}?(?<![\w.-])(([A-Za-z][A-Za-z0-9]*[_-])[\w-]+)",
    re.IGNORECASE,
)
_RENAMING = re.compile(r"\brenam\w*|\b(?:that|the|this|its|a new|new) name\b", re.IGNORECASE)


def renamed(fact: Fact, text: str, rules: list[Fact]) -> tuple[float, Fact] | None:
    """A new name given to a thing, said as a rename ("scratch that name, call the
    publication pub_billing", "rename it to pub_billing"): the one earlier rule naming
    another identifier of its stem ("pub_orders is fine") held the old name."""
    found = _NAMED_AS.search(text)
    if found is None or not _RENAMING.search(text):
        return None  # "call get_user from the handler", "name the env var X": no new name
    new, stem = found.group(1).casefold(), re.escape(found.group(2))
    other = re.compile(r"(?<![\w.-])" + stem + r"[\w-]+", re.IGNORECASE)
    naming = [
        old
        for old in rules
        if old is not fact and any(m.group(0).casefold() != new for m in other.finditer(old.text))
    ]
    return (0.0, naming[0]) if len(naming) == 1 else None


def _names_anew(clause: str, cues: Cues) -> bool:
    """Whether ``clause``, after a take-back's own, gives what comes in its place ("scratch
    that name, call the publication pub_billing"): its names are new, not dropped."""
    return bool(_NAMING.match(clause)) or any(
        cues.has(kind, clause) for kind in ("change", "select", "decision")
    )


def _plain(text: str) -> str:
    """``text`` with case and ``-``/``_`` aside: ``--legacy-peer-deps`` is ``legacy_peer_deps``."""
    return text.casefold().replace("-", "_")


def switched_away(text: str, cues: Cues) -> bool:
    """Whether ``text`` switches to a new value and takes the old one back ("wir wechseln auf
    PostgreSQL 15, die mariadb fliegt raus"): a later take-back of the old thing agrees with
    it and does not end it."""
    return cues.has("revoke", text) and cues.has("change", text)


def names_any(names: set[str], text: str) -> bool:
    """Whether ``text`` names one of ``names``, case and ``-``/``_`` aside."""
    said = _plain(text)
    return any(_plain(name).lstrip("_") in said for name in names)


__all__ = [
    "FLAG_OR_VAR",
    "NAME",
    "dropped_names",
    "named_alike",
    "names_any",
    "quantity_named",
    "renamed",
    "revoked_object",
    "switched_away",
    "unversioned",
]
