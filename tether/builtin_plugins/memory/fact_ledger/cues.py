"""Cue words as data: one table per language, merged into one matcher per cue kind.

A table maps a cue kind (:data:`KINDS`) to phrases. A phrase made of ASCII letters matches as
whole words, case aside ("must" does not match "mustard"); any other phrase (Chinese, Japanese…)
matches as a substring. English and Chinese ship here; a plugin adds a language through the
``register_fact_cues`` hook (see :mod:`tether.hookspecs.memory`). Nothing in the extractor
names a language: it asks :class:`Cues` which kind a sentence carries.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import tether.builtin_plugins.memory.fact_ledger.concepts as subjects

#: The cue kinds a table may fill (any other key is an error naming it).
KINDS = (
    "constraint",  # a rule or preference: must, never, always, prefer, 必须, 不要…
    "decision",  # a choice made: go with, decided, we'll use, 决定, 采用…
    "next_step",  # what comes next, at the start of a sentence: next, then, 下一步…
    "change",  # a new value replaces an old one: switch to, instead of, 改为, 换成…
    "revoke",  # an earlier rule stops: no longer, scratch that, 不再, 取消…
    "soft_change",  # a change only with another value of one subject: nah, go with, 就用…
    "accept",  # a reply accepting the assistant's proposal: yes, go ahead, 好的…
    "proposal",  # the assistant proposes: I suggest, shall I, 建议…
    "filler",  # a turn that only keeps the work going: continue, ok, 继续…
    "mask",  # words that only look like cues ("转换成" holds "换成"): blanked before matching
    "task",  # opens a request for work (a verb: fix, add, run, 帮我, 修…): not a standing fact
    "replaces",  # followed by the value being replaced: instead of X, rather than X, 而不是 X
    "gone",  # preceded by a value no longer in use: "statsd is gone", "X 别用了"
    "select",  # takes the value chosen: "use X", "with X" (one word swapped after it: a change)
    "current",  # says a value holds now: now, these days, the new, 现在, 目前 (a version said so
    # replaces another one of its key even when each sentence names a part of its own)
    "goal",  # asks for the work itself, however politely: i'd like you to, 希望, 打算, 请帮我…
    "choice",  # closes a terse choice right after a named value: "Redis it is", "Redis 吧"
)

ENGLISH: dict[str, tuple[str, ...]] = {
    "constraint": (
        "must", "must not", "never", "always", "don't", "do not", "dont", "shouldn't",
        "should", "prefer", "prefers", "preferably", "only", "avoid", "make sure", "ensure",
        "require", "requires", "required", "requirement", "without", "no more than", "at most",
        "at least", "stick to", "target", "we target", "constraint", "have to", "keep ... in",
        "keep ... under", "keep ... within", "keep ... below", "keep ... above", "keep ... to",
        "keep ... out of", "keep ... as", "keep ... short", "keep ... small", "keep using",
        "keep ... at", "set ... to", "stay ... under", "stays", "stay", "go with", "cap",
        "capped", "limit ... to", "i'm on", "we're on", "we are on", "is what", "are what",
        "runs on", "run on", "we use", "we're using", "i use", "i'm using", "works for me",
        "i'm used to", "default to", "defaults to", "should be", "needs to be", "is fine",
        "are fine", "is okay", "matters", "care about", "prefer not", "not allowed",
        "forbidden", "mandatory", "required to", "let's not",
        "use ... not", "not ... but",
        "need to", "needs to", "can't", "cannot", "mustn't", "i like", "i love", "i hate",
        "i'd rather", "rather", "for me", "personally", "i want", "i'd like", "please use",
        "not a fan", "i'm a fan", "my preference", "i find", "works best", "limit", "max",
        "maximum", "minimum", "please keep", "from now on", "no longer", "instead of",
        "switch to", "has to", "is to be", "are to be", "better to", "happier with",
        "leave out", "nothing but", "stay on", "pinned", "pin",
    ),
    "decision": (
        "decided", "decide to", "we decided", "instead of", "rather than", "chose", "choose to",
        "we're going with", "go with", "opted", "switch to", "switched to",
        "i'll use", "we'll use", "will use", "decision", "let's use", "settled on", "agreed on",
        "we'll go", "let's go", "pick", "picked",
    ),
    "next_step": (
        "next", "next step", "then", "after that", "afterwards", "todo", "as a next step",
        "later", "once that", "once this", "when that", "following that", "up next",
    ),
    "change": (
        "switch to", "switched to", "instead of", "instead", "rather than", "scratch that",
        "after all", "from now on", "change to", "changed to", "change it to", "now use",
        "replace", "replaced", "move to", "moved to", "actually", "correction", "update:",
        "no wait", "on second thought", "bump", "bumped", "make it", "let's make it",
        "use ... now", "switch ... to", "change ... to", "move ... to", "go back to",
        "i meant", "meant to say",
    ),
    "revoke": (
        "no longer", "scratch that", "forget", "never mind", "nevermind", "drop the",
        "not anymore", "anymore", "any more", "stop using", "don't bother",
        "ignore what i said", "is lifted", "lift the",
        "remove the rule", "we can drop",
    ),
    "accept": (
        "yes", "yep", "yeah", "ok", "okay", "sure", "agreed", "sounds good", "go ahead",
        "do it", "please do", "lgtm", "let's do it", "let's do that", "that works", "fine",
        "perfect", "great",
    ),
    "proposal": (
        "i suggest", "i propose", "i recommend", "shall i", "should i", "should we",
        "how about", "i could", "we could", "i'd suggest", "my suggestion", "want me to",
    ),
    "filler": (
        "continue", "go on", "keep going", "proceed", "ok", "okay", "thanks", "thank you",
        "yes", "no", "sure", "go ahead", "carry on", "next", "yep",
    ),
    "task": (
        "add", "fix", "write", "run", "make", "create", "implement", "update", "remove",
        "delete", "refactor", "build", "check", "look", "try", "port", "move", "rename", "show",
        "tell", "explain", "investigate", "debug", "deploy", "test", "review", "start", "get",
        "set up", "help", "can you", "could you", "would you", "please", "let's", "go",
        "find", "open", "read", "install", "upgrade", "migrate", "convert", "generate", "draft",
        "clean", "split", "merge", "wire", "hook", "figure out", "pick up", "picking up",
        "progress check", "summarize", "list", "print", "compare", "profile", "measure",
    ),
    "replaces": ("instead of", "rather than", "in place of", "replacing", "now not"),
    "gone": (
        "is gone", "are gone", "is dead", "is deprecated", "is end of life", "is eol",
        "is out", "is retired", "was too", "is no more", "is off the table",
    ),
    "select": (
        "use", "using", "uses", "with", "via", "through", "pick", "choose", "prefer",
        "go with", "stick with", "switch to", "rely on", "build on", "parsed with", "is",
        "are", "be", "to", "in", "on",
    ),
    "current": (
        "now", "these days", "nowadays", "currently", "new", "newer", "latest", "today",
        "upgraded", "finally", "anymore", "any more",
    ),
    "goal": (
        "i'd like you to", "i want you to", "i need you to", "i'd like to", "i want to",
        "we want to", "we'd like to", "the goal is", "our goal", "my goal", "the aim is",
        "i'm trying to", "we're trying to", "help me", "i was hoping", "i'm hoping",
        "we're hoping", "i'm looking to", "we're looking to", "the task is",
        "wondering if you could", "would it be possible", "it would be great if",
    ),
    "choice": ("it is", "it'll be", "then", "for now", "it's settled"),
}  # fmt: skip

CHINESE: dict[str, tuple[str, ...]] = {
    "constraint": (
        "必须", "务必", "一定要", "不要", "不能", "不可", "不许", "别", "禁止", "勿", "只能",
        "只用", "只", "总是", "始终", "永远", "一律", "尽量", "避免", "保持", "确保", "要求",
        "至少", "最多", "不超过", "不得", "应该", "应当", "需要", "得用", "偏好", "更喜欢",
        "喜欢", "习惯", "倾向", "希望", "最好", "宁愿", "对我来说", "限制", "上限", "下限",
        "以后", "不再", "改为", "换成", "改用", "用的是", "习惯用", "就行", "为准", "统一",
        "一律", "千万", "绝不", "不准", "请用", "别用",
    ),
    "decision": (
        "决定", "采用", "选用", "就用", "选择", "定了", "敲定", "用这个", "那就", "我们用",
        "改为", "换成", "改用", "就它", "就选", "就这么定", "用它", "更合适", "就这样",
        "就定", "定成", "定为", "选定",
        "选", "拍板", "最终用", "最后用", "最终选", "结论是", "方案是", "就按", "按这个来",
        "还是用", "还是选", "那就用", "直接用", "就走",
    ),
    "next_step": (
        "下一步", "接下来", "然后", "之后", "随后", "再来", "待办", "后面", "稍后", "回头",
    ),
    "change": (
        "改为", "换成", "改用", "改成", "替换", "而不是", "以后", "从现在起", "从现在开始",
        "今后", "不用了", "还是用", "还是", "更正", "其实", "改回", "换回",
    ),
    "revoke": ("不再", "取消", "算了", "不用了", "作废", "撤销", "去掉", "忽略之前"),
    "accept": ("好", "好的", "可以", "行", "同意", "没问题", "就这么办", "照你说的", "嗯"),
    "proposal": ("建议", "要不要", "我们可以", "我可以", "是否", "不如"),
    "filler": ("继续", "好的", "谢谢", "行", "嗯", "接着", "go on"),
    "task": (
        "帮我", "请", "把", "给", "加", "写", "修", "实现", "看看", "跑", "改", "做", "查", "删",
        "更新", "先", "开始", "处理", "排查", "检查", "部署", "升级", "迁移", "重构",
    ),
    "replaces": ("而不是", "不用", "取代", "代替", "换掉"),
    "gone": ("别用了", "不用了", "下线了", "要下线", "弃用", "作废了", "淘汰"),
    "select": ("用", "使用", "采用", "选用", "改用", "基于", "选", "是", "为"),
    "current": ("现在", "目前", "如今", "已经", "升级", "新"),
    "mask": (
        "转换成", "转换为", "转成", "变换成", "替换成", "不行", "好像", "可以吗", "是否可以",
        "别的", "别人", "区别", "只是", "不只", "之后的", "以后的",
        "选项", "可选", "候选", "筛选", "选中", "选择器", "选填", "单选", "多选",
    ),
    "goal": (
        "希望", "想要", "想请", "我想", "我们想", "目标是", "目标：", "打算", "准备", "计划",
        "请帮我", "请帮忙", "帮我", "帮忙", "麻烦您", "麻烦你", "麻烦帮", "能否", "能不能",
        "可不可以", "可以帮", "需要你", "需要您", "想让你", "想让您", "任务是", "需求是",
        "有个需求", "想把", "请你", "请您", "拜托",
    ),
    "choice": ("吧", "了", "啦", "呗"),
}  # fmt: skip

BUILTIN_TABLES: dict[str, Mapping[str, Sequence[str]]] = {"en": ENGLISH, "zh": CHINESE}


def check_table(language: str, table: Mapping[str, Sequence[str]]) -> dict[str, tuple[str, ...]]:
    """``table`` as plain tuples; a wrong key or value is a ``ValueError`` naming it."""
    if not isinstance(language, str) or not language.strip():
        raise ValueError("register_fact_cues: the language must be a non-empty string")
    if not isinstance(table, Mapping):
        raise ValueError(f"register_fact_cues({language!r}): the cues must be a mapping")
    out: dict[str, tuple[str, ...]] = {}
    for kind, phrases in table.items():
        if kind not in KINDS and not subjects.is_concept(kind):
            raise ValueError(
                f"register_fact_cues({language!r}): unknown cue kind {kind!r} "
                f"(expected one of: {', '.join(KINDS)}, or subject:/value:/part: and a key)"
            )
        if isinstance(phrases, str) or not all(isinstance(p, str) and p for p in phrases):
            raise ValueError(
                f"register_fact_cues({language!r}): {kind!r} must be a list of non-empty strings"
            )
        out[kind] = tuple(phrases)
    return out


_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_LEAD = frozenset({"and", "so", "ok", "okay", "well", "also"})
_CJK_LEAD = re.compile(r"^[^，,。.！!？?\s]{1,3}[，,]\s*")  # "好，" "那么，" before the cue


@lru_cache(maxsize=16)
def _words(text: str) -> tuple[str, list[str], frozenset[str]]:
    """``text`` in lower case and its words (memoized: one sentence is asked several kinds)."""
    lower = text.casefold()
    words = _WORD.findall(lower)
    return lower, words, frozenset(words)


@dataclass(frozen=True)
class Matcher:
    """One cue kind: word sequences (ASCII phrases), gapped phrases ("switch ... to") and
    substrings (any other script). Word sets, not one big regex: a 10k-entry session is read
    in well under a second."""

    phrases: frozenset[tuple[str, ...]]
    first: dict[str, tuple[int, ...]]  # first word → phrase lengths, longest first
    gapped: re.Pattern[str] | None
    substrings: tuple[str, ...]
    anchored: bool
    hints: tuple[str, ...] = ()  # the longest word of each phrase: a cheap first test
    gap_firsts: frozenset[str] = frozenset()  # first words of the gapped phrases
    vocabulary: frozenset[str] = frozenset()  # every word of its ASCII phrases

    def may_match(self, text: str) -> bool:
        """False when no cue can be in ``text`` (substring tests only: fast on long texts)."""
        lower = text.casefold()
        return any(hint in lower for hint in self.hints)

    def search(self, text: str) -> tuple[int, int] | None:
        """Where the first cue of ``text`` is (start, end), or ``None``."""
        lower, words, present = _words(text)
        starts: range | list[int] = range(len(words))
        if not self.anchored:
            if self.first.keys().isdisjoint(present):
                starts = []
        else:
            lead = 1 if words and words[0] in _LEAD else 0
            starts = range(lead, min(lead + 1, len(words)))
        first = self.first
        for i in starts:
            lengths = first.get(words[i])
            if lengths is None:
                continue
            for n in lengths:
                if i + n <= len(words) and tuple(words[i : i + n]) in self.phrases:
                    spans = list(_WORD.finditer(lower))
                    return spans[i].start(), spans[i + n - 1].end()
        if self.gapped is not None and not self.gap_firsts.isdisjoint(present):
            found = self.gapped.search(lower)
            if found:
                return found.start(), found.end()
        if self.substrings and not lower.isascii():
            head = lower.lstrip(" \t,.:;!?，。：；！？") if self.anchored else lower
            if self.anchored:
                lead = _CJK_LEAD.match(head)
                if lead and not any(head.startswith(p) for p in self.substrings):
                    head = head[lead.end() :]
            for phrase in self.substrings:
                at = head.find(phrase)
                if at == 0 or (at > 0 and not self.anchored):
                    offset = len(lower) - len(head)
                    return offset + at, offset + at + len(phrase)
        return None


def _gap_pattern(phrase: str) -> str:
    """``"keep ... under"``: the words in order, up to 40 characters between them."""
    parts = [re.escape(part.strip()) for part in phrase.split("...")]
    return r"\b" + r"\s+(?:.{0,40}?\s)?".join(parts) + r"\b"


def _matcher(phrases: Iterable[str], *, anchored: bool) -> Matcher:
    words: set[tuple[str, ...]] = set()
    gapped: list[str] = []
    other: list[str] = []
    for phrase in set(phrases):
        phrase = phrase.casefold()
        if "..." in phrase:
            gapped.append(phrase)
        elif phrase.isascii():
            words.add(tuple(_WORD.findall(phrase)))
        else:
            other.append(phrase)
    pattern = re.compile("|".join(_gap_pattern(p) for p in gapped)) if gapped else None
    first: dict[str, set[int]] = {}
    for phrase_words in words:
        if phrase_words:
            first.setdefault(phrase_words[0], set()).add(len(phrase_words))
    firsts = {w: tuple(sorted(n, reverse=True)) for w, n in first.items()}
    hints = {max(w, key=len) for w in words if w} | {p.split("...")[0].strip() for p in gapped}
    others = tuple(sorted(other, key=len, reverse=True))
    gap_firsts = frozenset(_WORD.findall(p)[0] for p in gapped if _WORD.findall(p))
    return Matcher(
        frozenset(words),
        firsts,
        pattern,
        others,
        anchored,
        tuple(sorted(hints | set(others))),
        gap_firsts,
        frozenset(w for p in words for w in p) | frozenset(_WORD.findall(" ".join(gapped))),
    )


@dataclass(frozen=True)
class Cues:
    """The merged tables: :meth:`has` tells whether a sentence carries a kind of cue."""

    languages: tuple[str, ...]
    matchers: dict[str, Matcher]
    masks: tuple[str, ...] = ()
    concepts: subjects.Concepts = field(default_factory=lambda: subjects.build_concepts(()))

    def has(self, kind: str, text: str) -> bool:
        return self.find(kind, text) is not None

    def may_have(self, kind: str, text: str) -> bool:
        """A cheap test before splitting a long text: False means :meth:`has` is False for
        every sentence of ``text``."""
        matcher = self.matchers.get(kind)
        return bool(matcher and matcher.may_match(text))

    def words(self, kind: str) -> frozenset[str]:
        """Every word of the ASCII phrases of ``kind`` ("keep ... under" gives keep, under)."""
        matcher = self.matchers.get(kind)
        return matcher.vocabulary if matcher else frozenset()

    def phrases(self, kind: str) -> tuple[str, ...]:
        """The phrases of ``kind`` in other scripts than ASCII, longest first."""
        matcher = self.matchers.get(kind)
        return matcher.substrings if matcher else ()

    def find(self, kind: str, text: str) -> tuple[int, int] | None:
        matcher = self.matchers.get(kind)
        if matcher is None:
            return None
        if self.masks and not text.isascii():
            text = _masked(text, self.masks)
        return matcher.search(text)


#: The kinds that count only at the start of a sentence (or a reply).
ANCHORED = frozenset({"next_step", "accept", "filler", "task"})


def build_cues(extra: Mapping[str, Mapping[str, Sequence[str]]] | None = None) -> Cues:
    """The built-in tables plus ``extra`` (language → table, e.g. from plugins)."""
    tables = {**subjects.with_extras(BUILTIN_TABLES), **(extra or {})}
    checked = {lang: check_table(lang, table) for lang, table in tables.items()}
    matchers = {
        kind: _matcher(
            (p for table in checked.values() for p in table.get(kind, ())),
            anchored=kind in ANCHORED,
        )
        for kind in KINDS
        if kind != "mask"
    }
    masks = {p for table in checked.values() for p in table.get("mask", ())}
    concepts = subjects.concepts_of(checked)
    return Cues(tuple(checked), matchers, tuple(sorted(masks, key=len, reverse=True)), concepts)


def _masked(text: str, masks: tuple[str, ...]) -> str:
    """``text`` with each mask phrase blanked (same length: cue positions stay valid)."""
    for mask in masks:
        if mask in text:
            text = text.replace(mask, "\u3000" * len(mask))
    return text


@lru_cache(maxsize=1)
def default_cues() -> Cues:
    """The built-in tables (English, Chinese), compiled once."""
    return build_cues()


def cues_for(extra: Mapping[str, Mapping[str, Sequence[str]]] | None) -> Cues:
    """The built-in tables, or those plus a plugin's; compiled once per set of tables."""
    if not extra:
        return default_cues()
    key = repr(sorted((k, sorted(v.items())) for k, v in extra.items()))
    cached = _CACHE.get(key)
    if cached is None:
        cached = _CACHE[key] = build_cues(extra)
    return cached


_CACHE: dict[str, Cues] = {}

__all__ = ["BUILTIN_TABLES", "CHINESE", "ENGLISH", "KINDS", "Cues", "build_cues", "cues_for"]
