"""Cue words as data: one table per language, merged into one matcher per cue kind.

A table maps a cue kind (:data:`KINDS`) to phrases. A phrase made of ASCII letters matches as
whole words, case aside ("must" does not match "mustard"), ``...`` standing for a few words
between and a closing ``$`` for the end of the sentence; any other phrase (Chinese, Japanese…)
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
from tether.builtin_plugins.memory.fact_ledger.tables import BUILTIN_TABLES, CHINESE, ENGLISH
from tether.builtin_plugins.memory.fact_ledger.words import CLAUSES

#: The cue kinds a table may fill (any other key is an error naming it).
KINDS = (
    "constraint",  # a rule or preference: must, never, always, prefer, 必须, 不要…
    "decision",  # a choice made: go with, decided, we'll use, 决定, 采用…
    "next_step",  # what comes next, at the start of a sentence: next, then, 下一步…
    "change",  # a new value replaces an old one: switch to, instead of, 改为, 换成…
    "revoke",  # an earlier rule stops: no longer, scratch that, 不再, 取消…
    "revert",  # back to the value before the latest change (or message): go back to the old,
    # scratch that, 用回原来的…
    "discard",  # a named thing goes: remove, drop, getting deleted, 去掉, 删掉 (see .revoke)
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
    "ask",  # opens a question that asks (what, how, should we, 怎么, 为什么…); a question
    # without one ("Can we keep it under 2 MB?", "…, ok?") is read as what it asks for
    "complaint",  # makes a question a complaint, a preference: why … again, can we not, 又…
    "provisional",  # says a value holds for now only: for now, to start with, 先用, 暂时…
)


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
_JOINING = frozenset({"and", "so", "ok", "okay", "well", "also"})  # before an anchored cue
#: Words before an anchored cue that leave it first: a joining word or a short acknowledgement
#: ("nice 👍 next step …", "ok great, next: …"), at most :data:`MAX_LEAD` of them.
_LEAD = _JOINING | frozenset(
    "nice great cool good thanks thx perfect alright yes yeah yep sure fine lgtm awesome".split()
)
MAX_LEAD = 2
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
            joined = 1 if words and words[0] in _JOINING else 0
            lead = joined
            while lead < min(MAX_LEAD, len(words) - 1) and words[lead] in _LEAD:
                lead += 1  # "nice 👍 next step …": the cue after the acknowledgement
            starts = [i for i in dict.fromkeys((joined, lead)) if i < len(words)]
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
            best: tuple[int, str] | None = None  # the earliest, and there the longest
            for phrase in self.substrings:
                at = head.find(phrase)
                if at == 0 or (at > 0 and not self.anchored):
                    if best is None or at < best[0]:
                        best = (at, phrase)
                    if at == 0:
                        break  # longest first: nothing starts earlier or is longer here
            if best is not None:
                offset = len(lower) - len(head)
                return offset + best[0], offset + best[0] + len(best[1])
        return None


def _gap_pattern(phrase: str) -> str:
    """``"keep ... under"``: the words in order, up to 40 characters between them; ``"can
    go $"``: the words at the end of the sentence ("--legacy-fonts can go.", not "we can go
    with Redis")."""
    end = phrase.endswith("$")
    if phrase.endswith(":") and "..." not in phrase:  # "update:", not "an update on X"
        return r"\b" + re.escape(phrase[:-1].strip()) + r"\s*:"
    parts = [re.escape(part.strip()) for part in phrase.rstrip("$ ").split("...")]
    tail = r"[\s.!?)]*$" if end else ""
    return r"\b" + r"\s+(?:.{0,40}?\s)?".join(parts) + r"\b" + tail


def _matcher(phrases: Iterable[str], *, anchored: bool) -> Matcher:
    words: set[tuple[str, ...]] = set()
    gapped: list[str] = []
    other: list[str] = []
    for phrase in set(phrases):
        phrase = phrase.casefold()
        labeled = phrase.endswith(":") and phrase.isascii()  # a label needs its colon
        if "..." in phrase or (phrase.endswith("$") and phrase.isascii()) or labeled:
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
    hints = {max(w, key=len) for w in words if w} | {
        p.rstrip("$: ").split("...")[0].strip() for p in gapped
    }
    others = tuple(sorted(other, key=lambda p: (-len(p), p)))  # longest first, then fixed
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

    def cue_span(self, text: str, kinds: Iterable[str]) -> tuple[int, int]:
        """Where in ``text`` its first cue of ``kinds`` speaks: from the start of the clause
        holding it (clauses cut at :data:`.words.CLAUSES`) to the end of the clause after it
        ("Scratch that limit, 35 minutes is fine"); all of ``text`` when it has no such cue.
        A value in an earlier clause ("the 900 MB file was a one-off, and we no longer …")
        is not what the cue is about."""
        spans = [span for kind in kinds if (span := self.find(kind, text)) is not None]
        if not spans:
            return 0, len(text)
        at, start, bounds = min(spans)[0], 0, []
        for clause in CLAUSES.split(text):
            begin = text.find(clause, start)
            start = begin + len(clause)
            if clause:
                bounds.append((begin, start))
        first = next((k for k, (_b, end) in enumerate(bounds) if end > at), len(bounds) - 1)
        return bounds[first][0], bounds[min(first + 1, len(bounds) - 1)][1]

    def blank(self, text: str, kinds: Iterable[str], *, times: int = 3) -> str:
        """``text`` with up to ``times`` phrases of each cue kind ``kinds`` blanked (spaces
        of their length): what is left says what the sentence is about."""
        for kind in kinds:
            for _ in range(times):
                span = self.find(kind, text)
                if span is None:
                    break
                text = text[: span[0]] + " " * (span[1] - span[0]) + text[span[1] :]
        return text


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
    """The built-in tables (:data:`~.tables.BUILTIN_TABLES`), compiled once."""
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
