"""Words of a fact: content words for likeness, the normal form of a restatement, and
whether a sentence is a prohibition (a negated imperative, in English or Chinese)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from functools import cache, lru_cache, wraps
from pathlib import Path
from typing import TypeVar

_Value = TypeVar("_Value")
_Cues = TypeVar("_Cues")
_Read = TypeVar("_Read")


@cache
def _vocabularies() -> dict[str, list[str]]:
    text = Path(__file__).with_name("vocabulary.json").read_text(encoding="utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def vocabulary(name: str) -> frozenset[str]:
    """The word list ``name`` of ``vocabulary.json`` (English, some with Chinese words):
    open-ended lists one extends by adding words are data, kept beside the cue tables rather
    than inside the code."""
    return frozenset(" ".join(_vocabularies()[name]).split())


def alternation(name: str) -> str:
    """The words of :func:`vocabulary` ``name`` as a regular-expression alternation (longest
    first, so ``tsx`` is tried before ``ts``)."""
    return "|".join(re.escape(w) for w in sorted(vocabulary(name), key=lambda w: (-len(w), w)))


def word_search(name: str) -> re.Pattern[str]:
    """A case-blind search for any word of :func:`vocabulary` ``name``: an ASCII word whole
    (``_`` stands for white space: ``at_most``), a CJK word anywhere in the text."""
    words = sorted(vocabulary(name), key=lambda w: (-len(w), w))
    return re.compile(
        "|".join(
            r"\b" + re.escape(w).replace("_", r"\s+") + r"\b" if w.isascii() else re.escape(w)
            for w in words
        ),
        re.IGNORECASE,
    )


#: Words that add a thing beside the others ("also", "as well", "another", 另外, 再加): what
#: they name is no new value of what is there.
ADDED = word_search("additive_words")

#: The end of a file name: a known extension (``vault.yml``, ``App.tsx``), in any case.
FILE_END = re.compile(rf"\.(?:{alternation('file_extensions')})$", re.IGNORECASE)
_ASCII_WORD = re.compile(r"[a-z0-9][a-z0-9_.+-]*[a-z0-9](?:'[a-z]+)?|[a-z0-9]")  # let's: 1 word
#: Characters of scripts written without spaces (kana, CJK ideographs, hangul): one word each.
WIDE_CHARS = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af"
WIDE = re.compile(f"[{WIDE_CHARS}]")
WIDE_RUN = re.compile(f"[{WIDE_CHARS}]+")
#: A word character of a spaced script (``\w`` but no wide one), for a look-around: a value
#: written against Chinese ("最多7节课", "用bcftools") starts and ends where a spaced one would.
LATIN_W = f"[^\\W{WIDE_CHARS}]"
#: A wide character or a full-width mark (，。：；！？（）「」、…): never part of an identifier.
_WIDE_OR_MARK = re.compile(f"[{WIDE_CHARS}\u3000-\u303f\uff00-\uff0f\uff1a-\uff20]")


def latin_view(text: str) -> str:
    """``text`` with each wide character and full-width mark as one space: the same length,
    so a span found in it is the span of the original, and an identifier written against
    Chinese ("服务器在10.0.0.5上", "票号FW-118") stands alone as it would between spaces."""
    return _WIDE_OR_MARK.sub(" ", text) if WIDE.search(text) else text


STOP = vocabulary("stop")
#: Function words, vague ones ("not", "after", "many", "thing") and "old" in any language
#: ("alte", 旧): none names what a take-back is about.
FUNCTION_WORDS = STOP | vocabulary("weak_subject") | vocabulary("old_words")


#: Characters that glue Chinese words together: a pair of characters with one of them ("释要"
#: of "注释要") names nothing of its own.
_CJK_GLUE = frozenset("的了要是在和与也都还就把被给对吧呢吗啊这那个会能可得地着过")


def shared_count(shared: set[str]) -> int:
    """How many words ``shared`` holds, function words ("not", "after") and CJK character
    pairs with a glue character ("释要") left out: two sentences share that many things they
    name."""
    glued = {w for w in shared if len(w) == 2 and WIDE.match(w) and _CJK_GLUE & set(w)}
    return len(shared - glued - FUNCTION_WORDS)


#: Where a sentence splits into clauses a fact can keep or lose one by one: a comma or a
#: semicolon (with any "and"/"but" after it), "and", "but", and their Chinese ("，", "并且").
#: A clause ending here (matched at a position): a stop, a closing bracket, the text's end, a
#: dash or a joining word ("scratch the 45 min, …", "make the grid 512x512 and …").
CLAUSE_ENDS = re.compile(r"\s*(?:[,;.!?，；。！？)]|$|[-—–]\s|(?:and|but|so|then)\b)")
CLAUSES = re.compile(r"\s*(?:[,;]\s*(?:and\s+|but\s+)?|\s+and\s+|\s+but\s+|[，；、]|并且|而且)\s*")
_NORMAL = re.compile(r"[\W_]+")
_PARTS = re.compile(r"[._+/-]+")


def words_of(text: str) -> set[str]:
    """Content words of ``text``: ASCII words (no stop words) and CJK character pairs."""
    lower = text.casefold()
    tokens = {w for w in _ASCII_WORD.findall(lower) if w not in STOP}
    for token in [t for t in tokens if not t.isalnum()]:  # a host, a pin: its parts count too
        tokens.update(p for p in _PARTS.split(token) if len(p) > 1 and p not in STOP)
    for run in WIDE_RUN.findall(lower):
        if _HANGUL.match(run):  # Korean is spaced: a word, its particle off ("로그인은": 로그인)
            tokens.add(_PARTICLE.sub("", run) or run)
            continue
        tokens.update(cjk_pairs(run, lone=True))
    return tokens


def cjk_pairs(run: str, *, lone: bool = False) -> set[str]:
    """The character pairs of a CJK ``run`` (a lone character itself, with ``lone``), none of
    two hiragana: those are grammar ("くだ" of ください, "して"), not what a rule is about."""
    pairs = (run[i : i + 2] for i in range(max(1 if lone else 0, len(run) - 1)))
    return {pair for pair in pairs if not _KANA_PAIR.fullmatch(pair)}


_HANGUL = re.compile("[\uac00-\ud7af]+$")
_PARTICLE = re.compile("(?:으로|에서|에게|까지|부터|처럼|은|는|이|가|을|를|에|로|의|도|만|와|과)$")
_KANA_PAIR = re.compile("[\u3040-\u309f]{1,2}")  # hiragana only


def word_count(text: str) -> int:
    """The words of ``text``, split at white space; two characters of a script written
    without spaces count as one word ("嗯 好的" is two)."""
    return len(WIDE.sub(" ", text).split()) + len(WIDE.findall(text)) // 2


def likeness(a: set[str], b: set[str]) -> float:
    """Jaccard likeness of two word sets (0 when either is empty)."""
    return len(a & b) / len(a | b) if a and b else 0.0


@lru_cache(maxsize=256)
def normal(text: str) -> str:
    """Words only, lower case: the key that makes a restatement the same fact."""
    return " ".join(_NORMAL.sub(" ", text.casefold()).split())


_NEGATED = re.compile(
    r"^\W*(?:no|never|don'?t|do not|stop|avoid)\b|\b(?:never|don'?t|do not|must not|mustn'?t)\b"
    r"|不要|禁止|不得|不准|不许|勿"
    r"|(?<![特区分类级识告性差个鉴辨离])别(?![的人处名墅致])",  # not 别的 (other), 级别 (level)
    re.IGNORECASE,
)


#: Prohibitions of the other built-in languages (``prohibitions`` of ``vocabulary.json``).
_PROHIBITED = word_search("prohibitions")


def negated(text: str) -> bool:
    """A prohibition ("never touch X", "不要改 X", "ook geen locks", "nunca uses X"): two of
    them on different objects add up, they do not replace each other."""
    return _NEGATED.search(text) is not None or _PROHIBITED.search(text) is not None


def memo_per_cues(read: Callable[[str, _Cues], _Read]) -> Callable[[str, _Cues], _Read]:
    """``read(text, cues)`` memoized per text and cue set (by identity; past 4096 texts the
    memo starts again empty)."""
    memo: dict[tuple[int, str], _Read] = {}

    @wraps(read)
    def memoized(text: str, cues: _Cues) -> _Read:
        key = (id(cues), text)
        found = memo.get(key)
        if found is None:
            if len(memo) > 4096:
                memo.clear()
            found = memo[key] = read(text, cues)
        return found

    return memoized


def unsaid_pairs(
    new: str, old: str, read: Callable[[str], Sequence[_Value]], said: Callable[[_Value], str]
) -> Iterator[tuple[_Value, _Value]]:
    """Each (new, old) pair of the values ``read`` finds in ``new`` and ``old`` whose new value
    ``old`` does not say already (``said``: a value's words; case aside)."""
    olds = read(old)
    if not olds:
        return
    known = {said(o).casefold() for o in olds}
    for n in read(new):
        if said(n).casefold() not in known:
            for o in olds:
                yield n, o


def leads_with(rest: str, words: frozenset[str], next_word: re.Pattern[str]) -> bool:
    """Whether ``rest`` (the text after a cue) opens with one of ``words``: its first word as
    ``next_word`` reads it (group 1), or a CJK word of them written first ("报错了")."""
    following = next_word.match(rest)
    if following and following.group(1).casefold() in words:
        return True
    opening = rest.lstrip()
    return any(not w.isascii() and opening.startswith(w) for w in words)


def word_stem(word: str) -> str:
    """``word`` without a plural or past ending ("retried" → "retry", "tests" → "test")."""
    for end, repl in (("ied", "y"), ("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if len(word) > len(end) + 2 and word.endswith(end) and not word.endswith("ss"):
            return word[: -len(end)] + repl
    return word


def word_root(word: str) -> str:
    """``word`` without its ending, for comparing only: "bakes" / "bake", "sprites" / "sprite"."""
    return word_stem(word).rstrip("e")


def stemmed(words: set[str]) -> set[str]:
    """ASCII words without a plural or ``-ing`` ending ("images" → "image", "loading" →
    "load"); other words as they are."""
    out = set()
    for word in words:
        if word.isascii() and word.isalpha():
            if len(word) > 5 and word.endswith("ing"):
                word = word[:-3]
            elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
                word = word[:-1]
        out.add(word)
    return out


MIN_SHORT = 3  # letters of a word written short ("adv", "env")
MIN_LONG = 9  # letters of the word it shortens ("advertising"): "app" is no "approval"


def shortened(word: str, others: set[str]) -> bool:
    """Whether ``word`` is another of ``others`` written short, or the other way round: three
    letters for a word of nine or more ("adv interval" / "advertising interval"); a word of
    its own ("log" / "login", "temp" / "template", "doc" / "docker") is none."""
    return any(
        len(short) == MIN_SHORT and len(long) >= MIN_LONG and long.startswith(short)
        for o in others
        for short, long in (sorted((word, o), key=len),)
    )


__all__ = [
    "CLAUSE_ENDS",
    "CLAUSES",
    "MIN_LONG",
    "MIN_SHORT",
    "LATIN_W",
    "FUNCTION_WORDS",
    "STOP",
    "cjk_pairs",
    "latin_view",
    "leads_with",
    "shortened",
    "likeness",
    "negated",
    "memo_per_cues",
    "normal",
    "shared_count",
    "stemmed",
    "unsaid_pairs",
    "word_count",
    "word_root",
    "word_stem",
    "words_of",
]
