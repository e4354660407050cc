"""Terse key-value pairs: a key word, at most a linking word, then a value led by a digit
("minSdk 26", "drop max to 8", "-np 96", "Fixed Timestep is 0.02", "minSdk 改为 24", "lock at
30fps"); after a pronoun or a hedge ("knock it to 0.07", "like 0.1s") the key is what the
sentence is about, its first content word. A later message giving such a key another value
changes it, in whatever sentence it says so (:func:`terse_change`); a text that gives one key
two values ("2 locally, 8 in prod") sets none of them, and two keys each naming a part of
their own ("web tier" / "worker tier", "on the T4 nodes") are two keys. A pair the sentence
finds fault with ("dt=1e-4 is too aggressive") names the old value: no pair of it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from tether.builtin_plugins.memory.fact_ledger.cues import default_cues
from tether.builtin_plugins.memory.fact_ledger.faulted import said_wanting
from tether.builtin_plugins.memory.fact_ledger.keyshape import CLAUSE_END, FILLER, key_words, stem
from tether.builtin_plugins.memory.fact_ledger.words import STOP, WIDE_RUN, vocabulary

#: A terse pair: a key word, at most a linking word, and a value led by a digit ("minSdk 26",
#: "max to 8", "-np 96", "Timestep is 0.02", "minSdk 改为 24", "lock at 30fps").
_TERSE = re.compile(
    r"(?<![\w.-])(?P<key>-{1,2}[A-Za-z][\w-]*|[A-Za-z][\w-]*[A-Za-z0-9])(?=[\s:=：])"
    r"(?:\s+(?:to|is|at|=)\b|\s*[:=])?\s*(?:改为|改成|改用|换成|设为|设成|调到|调成|用)?\s*"
    r"(?P<value>v?\d[\w.%-]*\w|\d)(?![\w:/-]|\.\w)"
)
#: A one-letter option with its level attached: "-O2", "-Os", "-j8" (the key: "-O").
_LEVEL = re.compile(r"(?<![\w-])(-[A-Za-z])(?:\d{1,2}|[a-z])(?![\w-])")
#: Words that number or place a thing rather than name a setting ("step 2", "line 212").
_COUNTERS = vocabulary("counters")


#: Words after a value that say when, not what for ("0.02 at the moment").
_WHEN = vocabulary("value_times")


@functools.lru_cache(maxsize=4096)
def _words(text: str) -> frozenset[str]:
    return frozenset(stem(w) for w in re.findall(r"[a-z][a-z0-9_]*", text.casefold()))


def _before(said: str) -> frozenset[str]:
    """What the key is of: the content words of its clause before it ("the web tier has",
    "Postgres on"), filler and cue words aside, as qualifiers (marked ``^``)."""
    ends = list(CLAUSE_END.finditer(said))
    clause = said[ends[-1].end() :] if ends else said
    cues = default_cues()
    ignored = cues.words("discard") | cues.words("revoke")
    words = frozenset("^" + w for w in key_words(clause, cues) if w not in ignored)
    return words | {_EVERY} if _ALL.search(clause) else words


#: Words before a value that name no key: a pronoun or a hedge ("knock it to", "like 0.1s").
_VAGUE = vocabulary("value_hedges")


def _subject(text: str) -> str:
    """What a sentence is about: its first content word (``@`` marks a key read so)."""
    words = re.findall(r"[a-z][a-z0-9_-]*", text.casefold())
    first = next((w for w in words if w not in FILLER and w not in STOP and len(w) > 2), "")
    return "@" + stem(first) if first else ""


@functools.lru_cache(maxsize=4096)
def terse_pairs(text: str) -> Mapping[str, tuple[str, frozenset[str]]]:
    """``{key: (value, tail)}`` of the terse pairs ``text`` states once each (keys stemmed;
    the tail: content words after the value in its clause, "on the T4 nodes")."""
    seen: dict[str, dict[str, tuple[str, frozenset[str]]]] = {}
    for match in _TERSE.finditer(text):
        key = match.group("key").casefold()
        if key in _VAGUE:  # "coyote time, like 0.1s" / "coyote …, knock it to 0.07"
            key = _subject(text)
        if key in FILLER or key in STOP or key in _COUNTERS or len(key.lstrip("-@")) < 2:
            continue
        if said_wanting(text, match.end()):
            continue  # "dt=1e-4 is too aggressive, set dt to 2.5e-5": the old value, faulted
        value = match.group("value")
        after = CLAUSE_END.split(text[match.end() :], maxsplit=1)[0]
        tail = key_words(after, None, last=False) | _before(text[: match.start()])
        seen.setdefault(stem(key), {})[value.casefold()] = (value, tail)
    for match in _LEVEL.finditer(text):  # "-O2" … "-Os": one option at another level
        after = CLAUSE_END.split(text[match.end() :], maxsplit=1)[0]
        tail = key_words(after, None, last=False)
        seen.setdefault(match.group(1), {})[match.group(0)] = (match.group(0), tail)
    return MappingProxyType({k: next(iter(v.values())) for k, v in seen.items() if len(v) == 1})


#: A key said of every part ("both modes lock at 30fps", "所有环境都用"): no part of its own.
_ALL = re.compile(r"\b(?:both|all|every|each)\b|所有|全部|都", re.IGNORECASE)
_EVERY = "^*"


def _apart(mine: frozenset[str], theirs: frozenset[str]) -> bool:
    """Whether each names a part of its own, before the key ("web tier" / "worker tier") or
    after the value ("on the A100 nodes" / "on the T4 nodes")."""
    for side in (lambda w: w[0] == "^", lambda w: w[0] != "^"):
        a, b = {w for w in mine if side(w)}, {w for w in theirs if side(w)}
        if a - b and b - a and _EVERY not in a | b:
            return True
    return False


def terse_changes(new: str, old: str) -> list[tuple[str, str]]:
    """``(old value, new value)`` for each key of ``old``'s terse pairs ``new`` sets anew,
    unless each says what it is for ("CUDA 12.1 on the A100 nodes" / "11.8 on the T4")."""
    mine, theirs = terse_pairs(new), terse_pairs(old)
    out = []
    for key, (value, tail) in mine.items():
        if key not in theirs:
            continue
        was, their_tail = theirs[key]
        if was.casefold() == value.casefold() or _apart(tail, their_tail):
            continue
        if not {w for w in their_tail - _WHEN if w[0] != "^"} <= _words(new):
            continue  # "30s on the logs index": changed only by a text naming the logs index
        out.append((was, value))
    return out


#: A CJK key and its number: "每批 5000 行", "批量改成 20000", "从库连接池 20".
_CJK_PAIR = re.compile(r"([\u3400-\u9fff]{1,8})\s*(\d[\d.]*)(?![\d.]*[A-Za-z_-])")
#: Characters that link or count rather than name ("每", "的", "改成").
_CJK_LINK = re.compile(
    r"改为|改成|换成|改用|改到|调到|调成|设为|设成|[每个的是用在了把给为到就先要请也都还]"
)


@functools.lru_cache(maxsize=4096)
def _cjk_keys(text: str) -> tuple[tuple[frozenset[str], str], ...]:
    return tuple(
        (frozenset(_CJK_LINK.sub("", m.group(1))), m.group(2)) for m in _CJK_PAIR.finditer(text)
    )


def cjk_change(new: str, olds: Sequence[str], *, cued: bool = False) -> tuple[int, str]:
    """``(index in olds, old number)``: ``new``, with a change cue, gives a CJK key another
    number — the one key of all of ``olds`` sharing most characters with it, and only it
    ("批量改成 20000" / "每批 5000 行"); ``(-1, "")`` when none is. ``cued``: ``new`` is a
    change without a cue word of its own (an accepted proposal: "建议上限设为 80 万")."""
    if not cued and default_cues().find("change", new) is None:
        return -1, ""
    said = [(index, k, v) for index, old in enumerate(olds) for k, v in _cjk_keys(old)]
    for key, value in _cjk_keys(new):
        scored = [(len(key & k), index, v) for index, k, v in said]
        best = max((score for score, _i, _v in scored), default=0)
        top = [(index, v) for score, index, v in scored if score == best]
        if best and len(top) == 1 and top[0][1] != value:
            return top[0]
    return -1, ""


#: What a CJK change sets, right after its cue: "改成每月调仓" → 每月调仓.
_CJK_SET = re.compile(r"(?:改成|改为|换成|改到|调成|设为|设成)\s*([\u3400-\u9fff]{3,8})")


def cjk_swap(new: str, olds: Sequence[str]) -> tuple[int, str]:
    """``(index in olds, old words)``: ``new`` changes to words that differ by one character
    from words of exactly one of ``olds`` ("改成每月调仓" / "每周调仓", "改为双周发布" /
    "单周发布"); ``(-1, "")`` when none or several do."""
    found = _CJK_SET.search(new)
    if found is None:
        return -1, ""
    said = found.group(1)
    subject = "".join(WIDE_RUN.findall(new[: found.start()]))  # "临时文件改成…": its own thing
    pairs = {subject[i : i + 2] for i in range(len(subject) - 1)}
    hits = []
    for index, old in enumerate(olds):
        if pairs and not any(pair in old for pair in pairs):
            continue  # "日志保留三天" is no rule on 临时文件
        for at in range(len(old) - len(said) + 1):
            window = old[at : at + len(said)]
            diff = [i for i, (a, b) in enumerate(zip(window, said, strict=True)) if a != b]
            if len(diff) == 1 and "\u3400" <= window[diff[0]] <= "\u9fff":
                hits.append((index, window))
    return hits[0] if len(hits) == 1 else (-1, "")


#: "手续费现在是万一点五了": a CJK key (the run before 现在) and what it is now.
_CJK_NOW = re.compile(r"([\u3400-\u9fff]{2,6})现在(?:是|改成|改为|用)\s*([^\s，。,；;了]{1,12})")


def cjk_now(new: str, olds: Sequence[str]) -> tuple[int, str]:
    """``(index in olds, old value)``: ``new`` says what a CJK key is now ("手续费现在是万一点五
    了") and exactly one of ``olds`` gives that key, right after it, another value ("手续费
    万三"); ``(-1, "")`` otherwise."""
    found = _CJK_NOW.search(new)
    if found is None:
        return -1, ""
    value = found.group(2)
    if not _VALUE_LIKE.search(value):
        return -1, ""  # "我们现在是周报制": a way of working, not a value
    for size in (3, 2):  # "财务说税率": the key is its last characters
        key = found.group(1)[-size:]
        if key in _PRONOUNS:
            return -1, ""
        hits = [
            (index, match.group(1))
            for index, old in enumerate(olds)
            for match in re.finditer(re.escape(key) + r"\s*([^\s，。,；;]{1,12})", old)
            if match.group(1) != value and _VALUE_LIKE.search(match.group(1))
        ]
        if hits:
            return hits[0] if len(hits) == 1 else (-1, "")
    return -1, ""


#: A value as a CJK key is given one: a digit, ASCII, or a number in characters ("万三").
_VALUE_LIKE = re.compile(r"^(?:[\w.%-]*[0-9A-Za-z][\w.%-]*|[零一二三四五六七八九十百千万两点]+)")
_PRONOUNS = frozenset("我们 你们 他们 大家 这个 那个 这边 那边 现在".split())


def terse_change(new: str, old: str) -> str:
    """The first value of ``old`` that ``new`` sets anew under the same key ("" if none)."""
    return next((old_value for old_value, _new in terse_changes(new, old)), "")


__all__ = ["cjk_change", "cjk_now", "cjk_swap", "terse_change", "terse_changes", "terse_pairs"]
