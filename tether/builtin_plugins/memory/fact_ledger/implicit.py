"""A change told by the shape of its value: the same subject gets another value of one shape.

Each clause stating a value gives it a *class* (:func:`values`): a size (``40MB``, ``2 GB``),
a duration (``800 毫秒``, ``2s``, ``20 min``), a count of one unit (``3 次`` / ``6 times``), a
date format (``dd/mm/yyyy``, ``%Y-%m-%d``), a version of one name, a port, a host, a cloud
region, a plain number, or a product name
(``RabbitMQ``, ``Kafka``; an ASCII word in a Chinese sentence, a capitalized word, a word after
"use"/"with"/"is"). A later clause gives another value of the same class to the same *subject*
when both name one concept of the tables (:mod:`.concepts`: ``queue`` = ``消息队列``, in any
language) or, in one script, share a content word ("the bundle"). It changes the earlier value
unless the two are for different parts (:func:`distinct`): different ``part:`` words
(staging / prod, old / new cluster), or each its own qualifier ("request timeout" / "health
probe times out", "for the backfill job" / "for the realtime consumer", 头像的上限 / 单个文件上限).
A product name changes only when the sentence carries a cue (change, "now"), or names the old
value as well ("Redis for the cache then, memcached has no pub/sub").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from operator import attrgetter

from tether.builtin_plugins.memory.fact_ledger.clock import clock_times
from tether.builtin_plugins.memory.fact_ledger.concepts import Hit, every_part, parts_differ
from tether.builtin_plugins.memory.fact_ledger.counted import counted, one_count
from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.measured import measured_alike
from tether.builtin_plugins.memory.fact_ledger.slots import WORD_STOP, counted_noun, slots
from tether.builtin_plugins.memory.fact_ledger.subject import cjk, topics_differ
from tether.builtin_plugins.memory.fact_ledger.topiclead import (
    keyed_after,
    names_own_key,
    opens_with_topic,
    picked_here,
    topic_of,
)
from tether.builtin_plugins.memory.fact_ledger.valueshapes import (
    DATE_FORMAT,
    PORT,
    REGION,
    SCHEDULE,
    SCHEDULE_WORDS,
)
from tether.builtin_plugins.memory.fact_ledger.when import DATE
from tether.builtin_plugins.memory.fact_ledger.words import (
    memo_per_cues,
    shortened,
    unsaid_pairs,
    vocabulary,
    word_stem,
)

_CLASS = {
    **dict.fromkeys(("qty:s", "qty:ms", "qty:min", "qty:h", "qty:d"), "duration"),
    **dict.fromkeys(("qty:kb", "qty:mb", "qty:gb", "qty:tb"), "size"),
}
_ASCII_NAME = re.compile(r"(?<![\w.@/-])[A-Za-z][\w.+#-]*[\w+#]|(?<![\w.@/-])[A-Za-z]\b")
_WORDS = re.compile(r"[a-z][a-z0-9'-]*[a-z0-9]")
#: Words that never say what a value is about (verbs of being and keeping, fillers).
_WEAK = vocabulary("weak_subject")
_DETERMINERS = frozenset("the a an our my its their this that these those".split())
_PREPOSITIONS = frozenset("for on in at".split())
_TIME = vocabulary("time_words")
_CLAUSE = re.compile(r"[,;!?，；。！？()（）]|\s[-—–→]+\s|\s→|→\s")
#: Classes :func:`~.subject.relation` already keys (and tells apart per part).
_KEYED = ("version:", "host", "url:", "image:")
_UNIT_WORDS = frozenset("ms s sec min mins h hr hrs d kb mb gb tb px rows times".split())


@dataclass(frozen=True)
class Value:
    text: str
    cls: str
    start: int


@memo_per_cues
def values(text: str, cues: Cues) -> list[Value]:
    """The values ``text`` states, by class, left to right (memoized per text)."""
    out: dict[int, Value] = {}
    for match in REGION.finditer(text):
        out[match.start()] = Value(match.group(0), "region", match.start())
    for match in DATE.finditer(text):
        out[match.start()] = Value(match.group(0), "date", match.start())
    for cls, found in (("schedule", SCHEDULE.finditer(text)), ("clock", clock_times(text))):
        for match in found:
            if any(v.start <= match.start() < v.start + len(v.text) for v in out.values()):
                continue  # "3月22日 10 点": the date, then its time
            when = match.group(0).strip()
            start = match.start() + match.group(0).find(when)
            out[start] = Value(when, cls, start)
    for match in DATE_FORMAT.finditer(text):
        pattern = match.group(0).casefold()
        if "%" in pattern or ("yy" in pattern and ("dd" in pattern or "mm" in pattern)):
            out[match.start()] = Value(match.group(0), "date_format", match.start())
    for match in PORT.finditer(text):
        out[match.start(1)] = Value(match.group(1), "port", match.start(1))
    at = 0
    for slot in slots(text):
        start = text.find(slot.text, at)
        at = max(at, start)
        if start < 0 or any(v.start <= start < v.start + len(v.text) for v in out.values()):
            continue
        if not slot.value or slot.shape in ("set", "flag", "path", "file"):
            continue
        if slot.shape == "qty:dims" and cjk(text):
            continue  # "训练分辨率 512x512" / "验证集用 256x256": no subject to tell them by
        if slot.shape.startswith("qty:"):
            cls = _CLASS.get(slot.shape, slot.shape)
        elif slot.shape == "num":
            cls = slot.key or "num"
        else:
            cls = {"ip": "host", "name": "name"}.get(slot.shape, slot.shape + ":" + slot.key)
        out[start] = Value(slot.text, cls, start)
    for value in _names(text, cues):
        end = value.start + len(value.text)
        if not any(v.start < end and value.start < v.start + len(v.text) for v in out.values()):
            out[value.start] = value
    return [out[k] for k in sorted(out)]


def _names(text: str, cues: Cues) -> list[Value]:
    """Product-like names: an ASCII word in a CJK sentence, a well-known value of a concept,
    a capitalized word inside an English sentence, a word right after "use", "with", "is"."""
    known = {(h.start, h.end) for h in cues.concepts.find(text) if h.key.startswith("value:")}
    subjects = {
        text[h.start : h.end].casefold()
        for h in cues.concepts.find(text)
        if not h.key.startswith("value:")
    }
    vocabulary = frozenset().union(*(cues.words(k) for k in ("constraint", "change", "decision")))
    wide = cjk(text)
    out = []
    for match in _ASCII_NAME.finditer(text):
        word, start = match.group(0), match.start()
        lower = word.casefold()
        if lower in WORD_STOP or lower in _WEAK or lower in subjects or lower in _UNIT_WORDS:
            continue
        if (start, match.end()) in known or wide:
            out.append(Value(word, "name", start))
            continue
        if lower in vocabulary or any(ch.isdigit() for ch in word):
            continue
        before = text[:start].rstrip()
        opening = not before or before.endswith((".", "!", "?", ":", "⚠️")) or len(before) < 4
        if word[:1].isupper() and not opening:
            out.append(Value(word, "name", start))
            continue
        if lower.endswith(("ed", "ing", "ly", "able", "ful")):
            continue  # "are provisioned", "is loading": not a name
        if selected(before, cues):
            out.append(Value(word, "name", start))
    return out


def selected(before: str, cues: Cues) -> bool:
    """Whether ``before`` ends with a word that takes a chosen value: the sentence's first
    such word ("use", "with", "is"), or a later "use"/"with" ("…, we use ujson")."""
    span = cues.find("select", before + " ")
    if span is not None and span[1] >= len(before):
        return True
    return _USED.search(before) is not None


#: A later word of choice that names what is used: "json parsing is slow, we use ujson".
_USED = re.compile(r"\b(?:use|using|uses|used|with|via|switch to|go with|stick with)$", re.I)


def clause_of(text: str, value: Value) -> str:
    """The clause of ``text`` stating ``value``."""
    at = 0
    for part in _CLAUSE.split(text):
        found = text.find(part, at)
        if found <= value.start < found + len(part):
            return part
        at = max(at, found)
    return text


def _subject_words(text: str, cues: Cues) -> frozenset[str]:
    """The content words of an ASCII clause (cue, stop and weak words and values aside)."""
    for value in values(text, cues):
        text = text.replace(value.text, " ")
    cue_words = frozenset().union(*(cues.words(k) for k in ("constraint", "change", "select")))
    return frozenset(
        w for w in _WORDS.findall(text.casefold())
        if len(w) > 2 and w not in _WEAK and w not in WORD_STOP and w not in cue_words
    )  # fmt: skip


def _qualifiers(text: str, anchors: list[tuple[int, int]]) -> set[str]:
    """Words saying which one: up to two words before a subject word ("request timeout",
    "the app bundle"), the word after for/on/in/at ("for the backfill job")."""
    out: set[str] = set()
    lower = text.casefold()
    for start, _end in anchors:
        before = [w for w in _WORDS.findall(lower[:start])][-2:]
        while before and (before[0] in _DETERMINERS or before[0] in _WEAK):
            before = before[1:]
        for word in reversed(before):
            if word in _DETERMINERS or word in _WEAK or word in WORD_STOP:
                break
            out.add(word)
    for start, end in anchors:  # "Retry webhooks 5 times": the object of a leading verb
        if not lower[:start].strip(" \t-*>•"):
            after = _WORDS.findall(lower[end:])[:1]
            out.update(w for w in after if w not in _WEAK and w not in WORD_STOP)
    tokens = _WORDS.findall(lower)
    for i, word in enumerate(tokens[:-1]):
        if word in _PREPOSITIONS:
            j = i + 1
            while j < len(tokens) and tokens[j] in _DETERMINERS:
                j += 1
            phrase = []
            for token in tokens[j : j + 3]:
                if token in _WEAK or token in WORD_STOP:
                    break
                phrase.append(token)
            if phrase and not _TIME.intersection(word_stem(t) for t in phrase):
                out.add(phrase[0])  # "for the sale week", "on monday": when, not which
    return out


def distinct(new: str, old: str, cues: Cues, *, strict: bool = True) -> bool:
    """Whether two clauses about one subject are for two parts (see the module); ``strict``:
    a part named in one only is another part too ("Staging runs 2 replicas" / "max pods
    40"), else each must name a part of its own."""
    everywhere = every_part(old)  # "log level INF everywhere": all parts
    if strict and not everywhere:
        if cues.concepts.keys(new, "part:") != cues.concepts.keys(old, "part:"):
            return True
    if parts_differ(new, old, cues.concepts) and not everywhere:
        return True
    both = {h.key for h in cues.concepts.find(new)} & {h.key for h in cues.concepts.find(old)}
    new, old = _unvalued(new, cues), _unvalued(old, cues)
    if cjk(new) != cjk(old):
        return False  # other words across scripts: only the part tables compare
    if cjk(new):
        return topics_differ(_blank(new, cues), _blank(old, cues))
    hits_new, hits_old = cues.concepts.find(new), cues.concepts.find(old)
    anchors_new = [(h.start, h.end) for h in hits_new]
    anchors_old = [(h.start, h.end) for h in hits_old]
    shared = _subject_words(new, cues) & _subject_words(old, cues)
    for word in shared:
        anchors_new += [(m.start(), m.end()) for m in re.finditer(rf"\b{word}", new.casefold())]
        anchors_old += [(m.start(), m.end()) for m in re.finditer(rf"\b{word}", old.casefold())]
    named = {  # the subjects named, not one that says which ("DB timeout", "for sessions")
        word_stem(w)
        for text, hits in ((new, hits_new), (old, hits_old))
        for h in hits
        if not h.key.startswith("part:") and not _qualifying(h, hits, text, both)
        for w in _WORDS.findall(text[h.start : h.end].casefold())
    }
    stems_new = {word_stem(w) for w in _WORDS.findall(new.casefold())}
    stems_old = {word_stem(w) for w in _WORDS.findall(old.casefold())}
    mine = {word_stem(w) for w in _qualifiers(new, anchors_new)} - stems_old - named
    theirs = {word_stem(w) for w in _qualifiers(old, anchors_old)} - stems_new - named
    words_new, words_old = set(_WORDS.findall(new.casefold())), set(_WORDS.findall(old.casefold()))
    mine = {w for w in mine if not shortened(w, words_old)}  # "adv interval" is the
    theirs = {w for w in theirs if not shortened(w, words_new)}  # "advertising interval"
    return bool(mine) and bool(theirs)


_FOR = re.compile(r"\b(?:for|of)\s+(?:the\s+|our\s+)?$", re.IGNORECASE)


def _qualifying(hit: Hit, hits: tuple[Hit, ...], text: str, both: set[str]) -> bool:
    """A subject one text names only, right before a subject both name ("DB timeout") or
    after "for"/"of" ("Redis for sessions"): it says which one, as a qualifier does."""
    if hit.key in both:
        return False
    before = any(g.key in both and 0 < g.start - hit.end <= 2 for g in hits)
    return before or _FOR.search(text[: hit.start]) is not None


def _unvalued(text: str, cues: Cues) -> str:
    """``text`` with its values and identifiers blanked (a path's words qualify nothing)."""
    said = {s.text for s in slots(text)} | {v.text for v in values(text, cues)}
    for one in sorted(said, key=lambda t: (-len(t), t)):  # longest first: "每周五下午 6 点"
        text = text.replace(one, " " * len(one))  # before the "6" inside it, whatever the order
    return text


def _blank(text: str, cues: Cues) -> str:
    for kind in ("change", "revoke"):
        for phrase in cues.phrases(kind):
            text = text.replace(phrase, " ")
    return text


def _same_subject(new: str, old: str, cues: Cues, *, concept: bool = False) -> bool:
    """One concept named in both clauses, or (``concept`` false, one script) a content word
    in common."""
    concepts_new, concepts_old = cues.concepts.subjects(new), cues.concepts.subjects(old)
    if concepts_new & concepts_old:
        return True
    if concept or cjk(new) or cjk(old):
        return False
    return bool(_subject_words(new, cues) & _subject_words(old, cues))


def shape_change(new: str, old: str, cues: Cues, *, cued: bool = False) -> bool:
    """Whether ``new`` gives the subject of ``old`` another value of the same class."""
    said_new = new.casefold()
    for n, o in unsaid_pairs(new, old, lambda text: values(text, cues), attrgetter("text")):
        if not _comparable(o.cls, n.cls) or o.text.casefold() == n.text.casefold():
            continue
        if not measured_alike(new, n, old, o):
            continue  # "a 12-hour expiry" / "cookies last 30 days": two things measured
        if n.cls.startswith(_KEYED):
            continue  # one key's values: :func:`~.subject.relation` (and its parts)
        if n.cls == "name" and not (cued or _named(o.text, said_new)):
            continue
        if n.cls == o.cls == "num" and not one_count(
            counted(new, n.start + len(n.text)), counted(old, o.start + len(o.text))
        ):
            continue  # "5 concurrent uploads" / "10 concurrent downloads": two things
        if n.cls == o.cls and n.cls in ("date", "date_format"):  # "release slipped, it's
            # 2024-03-22 now", "dates, everything as dd/mm/yyyy": the sentence
            if _same_subject(new, old, cues) and not distinct(new, old, cues):
                return True  # names what the date is of, rarely the clause
            continue
        clause_new, clause_old = clause_of(new, n), clause_of(old, o)
        same = _same_subject(clause_new, clause_old, cues, concept=n.cls == "name")
        if not same:  # "nvm on the textures size, the artist went with 32x32"
            led = _led(new, n, clause_new, cues, clause_old)
            same, clause_new = led != clause_new, led  # its topic is the old rule's
        region = _region_named(n, o, clause_new, clause_old, cues)
        bare = n.cls == o.cls and counted_noun(n.cls) and not _subject_words(clause_new, cues)
        if not (region or bare or same):
            continue  # a bare count ("8 shards") is of the one thing counted so before
        if region and parts_differ(clause_new, clause_old, cues.concepts):
            continue  # a region or schedule per part: only named parts tell them apart
        if (not region and distinct(clause_new, clause_old, cues)) or _other_names(
            clause_new, clause_old, o, n, cues
        ):
            continue
        return True
    return False


_SENTENCE = re.compile(r"[.!?。！？](?:\s|$)")


def _led(text: str, value: Value, clause: str, cues: Cues, old: str) -> str:
    """``clause`` (stating ``value``) after the clauses before it in its sentence, when they
    state no value and name a topic ``old`` says (:mod:`.topiclead`): what the value is of."""
    at = value.start - clause.find(value.text)
    lead = _SENTENCE.split(text[: max(at, 0)])[-1]
    if at < 0 or not lead.strip() or values(lead, cues) or not opens_with_topic(lead):
        return clause
    before = clause[: clause.find(value.text)]
    after = clause[clause.find(value.text) + len(value.text) :]
    if names_own_key(before) or cues.concepts.subjects(clause) or not picked_here(before):
        return clause  # "…, the health check interval is 10 seconds": a key of its own
    if keyed_after(after):
        return clause  # "on the reverb, use 20ms predelay": predelay's value
    return f"{lead} {clause}" if topic_of(lead, old) else clause


def _region_named(n: Value, o: Value, new: str, old: str, cues: Cues) -> bool:
    """Two cloud regions where one clause names the region ("Region for the new stacks is
    eu-central-1" after "Everything lives in us-east-1 today"), or two times a job runs where
    one sentence names the schedule ("时间也调一下：每月 24 号晚上 11 点跑"): a value of its
    own subject."""
    if n.cls != o.cls or n.cls not in ("region", "schedule", "clock"):
        return False
    if n.cls in ("schedule", "clock"):
        return bool(SCHEDULE_WORDS.search(new) or SCHEDULE_WORDS.search(old))
    return "region" in cues.concepts.subjects(new) | cues.concepts.subjects(old)


def _comparable(a: str, b: str) -> bool:
    """One class, or a bare number and a count ("retries: 5" / "重试 3 次")."""
    if a == b:
        return True
    counts = {a, b} - {"num"}
    return len(counts) == 1 and next(iter(counts)).startswith("qty:")


def _other_names(new: str, old: str, o: Value, n: Value, cues: Cues) -> bool:
    """Each clause names a thing of its own beside the value ("Postgres on port 5432" /
    "Redis on port 6379"): two things."""
    mine = {v.text.casefold() for v in values(new, cues) if v.cls == "name"} - {n.text.casefold()}
    theirs = {v.text.casefold() for v in values(old, cues) if v.cls == "name"} - {o.text.casefold()}
    return bool(mine - theirs) and bool(theirs - mine)


def _named(value: str, text: str) -> bool:
    return re.search(r"(?<![\w.-])" + re.escape(value.casefold()) + r"(?![\w-])", text) is not None


__all__ = ["Value", "clause_of", "distinct", "selected", "shape_change", "values"]
