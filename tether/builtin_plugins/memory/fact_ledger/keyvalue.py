"""A subject named by its own words, no table needed: ``<subject words> <value>``.

Users name settings the tables never list ("水位线 80%", "codec: zstd", "Sentry sample rate
0.25", "分区键用 shop_id"). A clause gives ``(subject, value)`` pairs: the value is a number
(with its unit, if any), an identifier-like token (a digit, ``_``, ``.``, ``-``, ``:``, a
capital inside), or a plain word after ``:``/``=``/``is`` at the end of a short clause or an
ASCII word in a CJK clause; the subject is the content words right before it in the clause
(ASCII words without endings, CJK character pairs), cue and filler words aside. Two clauses
about one subject — one subject's words inside the other's — with
values of one shape that differ are a change (:func:`same_key`), unless they name different
parts or each is said of a thing of its own ("for the mailer" / "for the ingest consumer").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from operator import attrgetter

from tether.builtin_plugins.memory.fact_ledger.concepts import parts_differ, per_parts
from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.identifiers import identifier_spans
from tether.builtin_plugins.memory.fact_ledger.subject import topics_differ
from tether.builtin_plugins.memory.fact_ledger.when import DATE
from tether.builtin_plugins.memory.fact_ledger.words import (
    LATIN_W,
    STOP,
    WIDE,
    WIDE_RUN,
    alternation,
    memo_per_cues,
    negated,
    unsaid_pairs,
    vocabulary,
)

#: A value; one written against Chinese ("最多7节课", "用bcftools") counts as a spaced one.
_L = LATIN_W  # a word character, no wide one
_HEX_COLOR = r"(?P<hex>(?<![\w&])#(?=\d*[A-Fa-f])[0-9A-Fa-f]{3,8}(?![\w-]))"
_NUMBER = (  # with its unit: "30s", "8 GB", "5 分"
    rf"(?P<num>(?<!{_L})(?<![.:/#-])[-+]?\d+(?:[.:,]\d+)*"
    r"(?:\s?(?:%|[A-Za-z]{1,8}\b(?!['’][a-z])|[\u4e00-\u9fff]))?)"  # not "9990 doesn't"
)
_PART = rf"(?:{_L}|\$)"
_TOKEN = (  # a dotted, slashed or snake name; a name with a digit
    rf"(?P<token>(?<!{_L})(?<![.:/@#-])(?:[A-Za-z_$]{_PART}*(?:[._:/@-]{_PART}+)+"
    rf"|[a-z]+[A-Z_]{_L}*|[A-Za-z]*\d(?:{_L}|[.-])*))"
)
_WORD = rf"(?P<word>(?<!{_L})(?<![./@#-])[A-Za-z](?:{_L}|[+#])*(?!{_L}|[/-]|\.\w))"
_VALUE = re.compile("|".join((_HEX_COLOR, _NUMBER, _TOKEN, _WORD)))
_ASCII = re.compile(r"[a-z][a-z0-9'-]*")
_ADDRESS = re.compile(r"^\d{1,3}(?:\.\d{1,3}){3}\b")  # 10.12.0.4: an address, no number
_CLAUSE = re.compile(r"[,;!?，；。！？()（）]|\s[-—–]+\s")
_KEY_LABEL = re.compile(r":\s")  # right after a token: it names a key ("id-token: write")
#: Words that say how a value is set, not what it is about.
_FILLER = vocabulary("setting_filler")
#: Chinese words that join or qualify and never name a subject or a unit ("1000 和 2000",
#: "2000 都是 EUR"): "and", "or", "with", "all", "also", "still", "is", "at".
_CJK_FUNCTION = vocabulary("cjk_function_words")
#: CJK words that only link a subject and its value (verbs of setting, particles).
_CJK_LINKS = re.compile(rf"(?:{alternation('cjk_links')}|[{''.join(sorted(_CJK_FUNCTION))}])+$")
_PLAIN_AFTER = re.compile(r"(?:[:=：]|\b(?:is|are|be)\b)\s*$", re.IGNORECASE)
_ADJECTIVE = re.compile(r"(?:ed|ing|ly|able|ible|ful|ous|ive|less|ish)$")
_NAME_BEFORE = re.compile(r"(?<![\w.-])[A-Z][\w+.-]*\s+$")
#: Adverbs opening a CJK run that name no subject: 直接 (directly), 先 (first), 统一 (all).
_CJK_ADVERBS = re.compile(r"^(?:直接|先|就|再|还是|然后|另外|顺便|统一|一律|都|也|只)+")
_NOT_UNITS = frozenset("for on in at of and or but with if when than".split()) | _CJK_FUNCTION
_LABEL = re.compile(r"^\s*([A-Za-z][\w -]{0,30}?)\s*:\s")
_OF = re.compile(r"\s+(?:of|for)\s+(?:the\s+|our\s+)?([A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*)?)")
_NUMBERED = re.compile(r"(?:#|\b(?:number|no\.?|id|ticket|issue|pr|phase|step|module))\s*$", re.I)
_NEXT = re.compile(r"\s*([A-Za-z][\w-]*)")
_ACRONYM = re.compile(r"\b[A-Z]{2}\b")
MAX_PLAIN_CLAUSE = 8  # words: a plain word is a value only in a short clause


@dataclass(frozen=True)
class Pair:
    subject: frozenset[str]
    value: str
    shape: str  # "num:<unit>", "ip", "token", "word"
    clause: str


def _stem(word: str) -> str:
    for end in ("ing", "es", "s"):
        if len(word) > len(end) + 3 and word.endswith(end) and not word.endswith("ss"):
            return word[: -len(end)]
    return word


def _subject(before: str, cues: Cues | None) -> frozenset[str]:
    """The content words right before a value (up to four ASCII words, or the CJK run)."""
    runs = WIDE_RUN.findall(before)
    if runs and before.rstrip().endswith(runs[-1]):
        run = _CJK_ADVERBS.sub("", _CJK_LINKS.sub("", runs[-1]))  # "直接 MergeTree": no key
        return (
            frozenset(run[i : i + 2] for i in range(len(run) - 1))
            if len(run) > 1
            else (frozenset({run}) if run else frozenset())
        )
    ignored = _FILLER | STOP
    if cues is not None:
        ignored = ignored | cues.words("change") | cues.words("soft_change")
    words = [w for w in _ASCII.findall(before.casefold())][-5:]
    acronyms = {w.casefold() for w in _ACRONYM.findall(before)}  # "DB", "UI": a subject too
    out = [_stem(w) for w in words if w not in ignored and (len(w) > 2 or w in acronyms)]
    return frozenset(out[-4:])


@memo_per_cues
def _pairs(text: str, cues: Cues | None) -> tuple[Pair, ...]:
    out = []
    for start, end, kind, _subject_key in identifier_spans(text):
        if kind in ("path", "url"):  # a path's words name no setting ("对账文件放在 /data/…")
            text = text[:start] + " " * (end - start) + text[end:]
    label = _LABEL.match(text)
    topic = _subject(label.group(1), cues) if label else frozenset()
    for clause in _CLAUSE.split(text):
        wide = bool(WIDE.search(clause))
        for match in _VALUE.finditer(clause):
            kind = match.lastgroup or ""
            value = match.group(0)
            before = clause[: match.start()]
            if kind == "word":
                rest = clause[match.end() :].strip(" .。!！")
                short = len(clause.split()) <= MAX_PLAIN_CLAUSE
                if value.casefold() in _FILLER | STOP or _ADJECTIVE.search(value.casefold()):
                    continue
                if not (wide or (short and not rest and _PLAIN_AFTER.search(before))):
                    continue
            if kind == "token" and _KEY_LABEL.match(clause, match.end()):
                continue  # "id-token: write", "timeout-minutes: 10": a key, its value after
            following = _NEXT.match(clause, match.end())
            if kind != "num" and following and following.group(1).casefold() not in _FILLER | STOP:
                continue  # "on the A100 nodes": a word naming which nodes, not a value
            shape = "token" if kind in ("word", "hex") else kind
            if kind == "num":
                unit = re.sub(r"^[-+\d.:,\s]+", "", value)
                if unit.casefold() in _FILLER | STOP | _NOT_UNITS:
                    value, unit = value[: len(value) - len(unit)].rstrip(), ""
                if not unit and (_NUMBERED.search(before) or _NAME_BEFORE.search(before)):
                    continue  # "#123", "Module 3", "Python 3.11": which one (or a version)
                shape = "ip" if _ADDRESS.match(value) else "num:" + _stem(unit.casefold())
            # no words before it: those after it ("keep 30 days of backups"), the sentence's
            # label ("Backups: …, keep 14 days"), the subject of the clause before ("每页 20
            # 条太少了，改 50")
            subject = _subject(before, cues) or _after(clause[match.end() :], cues) or topic
            if not subject and out and out[-1].clause != clause:
                subject = out[-1].subject
            if subject:
                out.append(Pair(subject, value, shape, clause))
    return tuple(out)


def _after(rest: str, cues: Cues | None) -> frozenset[str]:
    """The words a value is of, said after it ("30 days of backups")."""
    found = _OF.match(rest)
    return _subject(found.group(1), cues) if found else frozenset()


def values_said(text: str) -> list[str]:
    """The numbers (with their units), dates, identifier-like tokens, paths, URLs, flags and
    variables ``text`` states."""
    out = []
    for start, end, kind, _key in identifier_spans(text):
        if kind in ("path", "url", "flag", "env", "assign"):  # "Team=payments" is one
            out.append(text[start:end])
            text = text[:start] + " " * (end - start) + text[end:]
    for date in DATE.finditer(text):  # "July 1" is one value: not the 1 of "April 1"
        out.append(date.group(0))
        text = text[: date.start()] + " " * len(date.group(0)) + text[date.end() :]
    for match in _VALUE.finditer(text):
        if match.lastgroup == "num":
            value = match.group(0)
            unit = re.sub(r"^[-+\d.:,\s]+", "", value)
            if unit.casefold() in _FILLER | STOP | _NOT_UNITS:
                value = value[: len(value) - len(unit)].rstrip()
            out.append(value)
        elif match.lastgroup in ("token", "hex"):
            out.append(match.group(0))
    return out


def _alike(a: frozenset[str], b: frozenset[str]) -> bool:
    """One subject: one's words inside the other's ("codec" / "compression codec")."""
    return bool(a & b) and (a <= b or b <= a)


_FOR = re.compile(r"\b(?:for|on|in|at|of)\s+(?:the\s+|a\s+|an\s+|our\s+|my\s+)?([a-z][\w-]*)", re.I)


def _qualifier(pair: Pair) -> str:
    """The word after for/on/in/at/of once the value is said ("2 workers for the mailer")."""
    after = pair.clause[pair.clause.find(pair.value) + len(pair.value) :]
    found = _FOR.search(after)
    return _stem(found.group(1).casefold()) if found else ""


def same_key(new: str, old: str, cues: Cues | None) -> bool:
    """Whether ``new`` gives a subject of ``old`` another value (see the module)."""
    if cues is not None and (
        parts_differ(new, old, cues.concepts) or per_parts(new, old, cues.concepts)
    ):
        return False
    for n, o in unsaid_pairs(new, old, lambda text: _pairs(text, cues), attrgetter("value")):
        if n.shape != o.shape and not (n.shape == "num:" or o.shape == "num:"):
            continue
        if n.shape.startswith("num") != o.shape.startswith("num"):
            continue
        if not _alike(n.subject, o.subject):
            continue
        if negated(n.clause) != negated(o.clause):
            continue  # "别把游戏自己的 dll 打包进去" bans; it sets no value of "游戏的 Mono"
        if WIDE.search(n.clause) and WIDE.search(o.clause) and topics_differ(n.clause, o.clause):
            continue
        mine, theirs = _qualifier(n), _qualifier(o)
        if mine and theirs and mine != theirs:
            continue  # "8 workers for the ingest consumer" / "2 for the mailer"
        if cues is not None and parts_differ(n.clause, o.clause, cues.concepts):
            continue
        return True
    return False


def _units(text: str) -> set[tuple[str, str]]:
    out = set()
    for match in _VALUE.finditer(text):
        if match.lastgroup == "num":
            unit = re.sub(r"^[-+\d.:,\s]+", "", match.group(0))
            if unit and unit.casefold() not in _FILLER | STOP | _NOT_UNITS:
                out.add((_stem(unit.casefold()), match.group(0).casefold()))
    return out


def same_unit(new: str, old: str) -> bool:
    """Whether ``new`` states a number in a unit ``old`` states another number in ("7 点" /
    "6 点"): with a change cue, the one earlier rule of that unit is the one it changes."""
    mine, theirs = _units(new), _units(old)
    said = {value for _unit, value in theirs}
    units = {unit for unit, _value in theirs}
    return any(unit in units and value not in said for unit, value in mine)


def subject_values(text: str, cues: Cues | None) -> tuple[Pair, ...]:
    """The ``(subject, value)`` pairs ``text`` states (see the module)."""
    return _pairs(text, cues)


__all__ = ["Pair", "same_key", "same_unit", "subject_values", "values_said"]
