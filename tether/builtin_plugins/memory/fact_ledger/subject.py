"""Which earlier statement a new one is about: the values a sentence states and their subject.

A sentence's *slots* (:mod:`.slots`) are the values it states, by shape: a version pin, a
``KEY=value``, a flag with a value, a host (with or without a port), an IP address, a URL, a
quantity with its unit (``20MB``, ``30 s``, ``50 rows``, ``50 条``), a number after a name
(``Node 20``), a library-like name (``PyYAML``, ``ruamel.yaml``, ``pytest-xdist``). Some slots
are *subjects*, not values: a path, an environment variable's name, a ticket id, a bare flag,
a numbered part (``Module 3``) — two of them are two things.
The rest of the sentence is its *frame*.

:func:`relation` tells whether a new sentence restates an older one's subject with another
value, without any cue word: the same key (``max_retries=8`` / ``max_retries=3``, ``Node 18`` /
``Node 20``, ``db-1.internal:5432`` / ``db-2.internal:5432``); library names of one head
(``PyYAML`` / ``ruamel.yaml``) in frames that share a word; or the same frame around a
different value of one shape. Two sentences naming different subjects (two paths, two
environment variables) never replace each other that way, nor does one version or host said
of two parts ("Python 3.11 for the service" / "Python 3.12 for scripts", :func:`per_part`).
The subject comes from the values, not the words, so a change stated in another language
than the original is found too.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from tether.builtin_plugins.memory.fact_ledger.concepts import parts_differ
from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.slots import WORD_STOP, Slot, slots
from tether.builtin_plugins.memory.fact_ledger.words import FILE_END, WIDE, WIDE_RUN

FRAME_LIKENESS = 0.5  # the frames of two sentences about one subject
CJK_OVERLAP = 0.6  # CJK frames: the share of the smaller one in common
#: Shapes whose key is the subject's own name (a variable, a package, a flag, an image):
#: two keys are two subjects, whatever the words around them.
_NAMED_KEYS = frozenset({"set", "pin", "flag", "image", "num"})
#: Settings often given per environment or per part ("--replicas 3 to staging", "--replicas 5
#: to prod"): one key said of two things is two facts (a version or a host: :func:`per_part`).
_CONFIG_KEYS = frozenset({"set", "flag"})
#: Keys one value of which is often said per part ("Python 3.11 for the service", "Redis at
#: cache-1.internal for sessions"): see :func:`per_part`.
PER_PART_KEYS = ("version:", "host:")
MAX_WORDS = 25  # longer sentences hold several items: their look-alikes are separate
_ASCII_WORD = re.compile(r"[a-z][a-z0-9_'+-]*[a-z0-9]|[a-z]")
_NEXT_WORD = re.compile(r"\s*(?:(?:the|a|an|our|my|its)\s+)?([A-Za-z][\w'+-]*)", re.IGNORECASE)


_CLAUSE = re.compile(r"[,;!?，；。！？]|\s[-—–]+\s")
#: Cue kinds whose words say how a value is stated, not what it is about: left out of frames.
_MASKED = ("change", "revoke", "constraint", "decision", "next_step", "select")
_FRAMES: dict[tuple[int, str], frozenset[str]] = {}


def _words(text: str) -> frozenset[str]:
    lower = text.casefold()
    words = {w for w in _ASCII_WORD.findall(lower) if w not in WORD_STOP and len(w) > 1}
    for run in WIDE_RUN.findall(lower):
        if len(run) > 1:  # a lone character is a particle (吧, 的, 了)
            words.update(run[i : i + 2] for i in range(len(run) - 1))
    return frozenset(words)


def frame(text: str, cues: Cues | None = None) -> frozenset[str]:
    """The words of ``text`` around its slots, cue words left out: ASCII words and CJK
    character pairs (what the sentence is about, not how it is said)."""
    key = (id(cues), text)
    cached = _FRAMES.get(key)
    if cached is not None:
        return cached
    blanked = text
    for slot in slots(text):
        blanked = blanked.replace(slot.text, " ")
    cue_words: frozenset[str] = frozenset()
    if cues is not None:
        cue_words = frozenset().union(*(cues.words(kind) for kind in _MASKED))
        if not blanked.isascii():
            for kind in _MASKED:
                for phrase in cues.phrases(kind):
                    blanked = blanked.replace(phrase, " ")
    if len(_FRAMES) > 4096:
        _FRAMES.clear()
    _FRAMES[key] = out = _words(blanked) - cue_words
    return out


def clause(text: str, value: str) -> str:
    """The clause of ``text`` that states ``value`` (the whole text when none does)."""
    return next((c for c in _CLAUSE.split(text) if value in c), text)


def _framed(a: frozenset[str], b: frozenset[str]) -> bool:
    """One frame inside the other, sharing a word: the same words around another value
    ("Batch size: 256 rows." / "Batch size: 512 rows, …"); two frames that each have words
    of their own name two things ("functions under 50 lines" / "files under 400 lines").
    CJK character pairs are looser (a verb makes pairs of its own: 超时是 / 超时调到): most of
    the smaller frame shared is enough."""
    shared = a & b
    if not shared:
        return False
    if any(not w.isascii() for w in shared):
        return len(shared) >= 2 and len(shared) / min(len(a), len(b)) >= CJK_OVERLAP
    return a <= b or b <= a


def qualified(new: str, old: str, n: Slot, o: Slot, cues: Cues | None = None) -> bool:
    """Whether two values of one key are said of two different things: their clauses share
    words and each has words of its own ("--replicas 3 to staging" / "--replicas 5 to
    prod")."""
    named = _words(o.key.split(":", 1)[-1].replace("-", " "))  # "helm" of version:helm
    a = frame(clause(new, n.text), cues) - named
    b = frame(clause(old, o.text), cues) - named
    return bool(a & b) and bool(a - b) and bool(b - a) and not _framed(a, b)


def _part(text: str, slot: Slot, cues: Cues | None) -> frozenset[str]:
    """The words of the clause stating ``slot`` that say which part it is about (its key's
    name and verbs of work left out)."""
    named = _words(slot.key.split(":", 1)[-1].replace("-", " "))
    verbs = cues.words("task") | cues.words("current") if cues is not None else frozenset()
    return frame(clause(text, slot.text), cues) - named - verbs


def per_part(new: str, old: str, n: Slot, o: Slot, cues: Cues | None = None) -> bool:
    """Whether two versions of one name are said of two parts ("The service runs on Python
    3.11" / "Scripts may use Python 3.12", "CUDA 12.1 on the A100 nodes" / "CUDA 11.8 on the
    T4 nodes"): each clause has words of its own (verbs of work aside: "We deploy with Helm
    3" names no part), and the new one does not say it holds now ("We run Grafana 10 now")."""
    a, b = _part(new, n, cues), _part(old, o, cues)
    if not (a - b and b - a) or _framed(a, b):
        return False
    return cues is not None and not _said_now(clause(new, n.text), a - b, cues)


def _said_now(text: str, own: frozenset[str], cues: Cues) -> bool:
    """Whether ``text`` says its value holds now ("We run Grafana 10 now", "what the new
    cluster runs"); a cue word before a word naming its own part is not one ("the new admin
    panel builds with Node 20" is about another part)."""
    while True:
        span = cues.find("current", text)
        if span is None:
            return False
        after = _NEXT_WORD.match(text, span[1])
        if after is None or after.group(1).casefold() not in own:
            return True
        text = text[: span[0]] + " " * (span[1] - span[0]) + text[span[1] :]


def nearest_parts(new: str, olds: list[str], cues: Cues | None = None) -> list[int]:
    """Of several earlier sentences giving a value of a key ``new`` changes, those about the
    part ``new`` names ("The service moves to Python 3.13 now" changes the service's 3.11,
    not the scripts' 3.12); all of them when it names none of their parts."""
    parts: list[tuple[frozenset[str], frozenset[str]] | None] = []  # new's part, old's
    for old in olds:
        pair = next(((o, n) for o, n in changed_pairs(new, old) if o.key and o.key == n.key), None)
        parts.append((_part(new, pair[1], cues), _part(old, pair[0], cues)) if pair else None)
    common = frozenset.intersection(*(p[1] for p in parts if p)) if any(parts) else frozenset()
    near = [i for i, p in enumerate(parts) if p and p[0] & (p[1] - common)]
    return near or list(range(len(olds)))


def topics_differ(new: str, old: str) -> bool:
    """Two CJK sentences that say the same words after a different topic of their own
    ("测试环境超时 5 秒" / "生产环境超时 30 秒"): the words before their longest common run
    differ and each has two characters or more there, or one before a longer common run
    ("我们的接口超时是 3 秒" / "接口超时调到 10 秒" has no topic of its own in the second: a
    change)."""
    a, b = "".join(WIDE_RUN.findall(new)), "".join(WIDE_RUN.findall(old))
    if len(a) < 4 or len(b) < 4:
        return False
    match = SequenceMatcher(None, a, b, autojunk=False).find_longest_match(0, len(a), 0, len(b))
    mine, theirs = a[: match.a], b[: match.b]
    if match.size < 2 or not mine or not theirs or mine == theirs:
        return False
    # 免费租户限流 / 付费租户限流: one character of its own each is a topic when much follows
    return (len(mine) >= 2 and len(theirs) >= 2) or match.size >= 3


def cjk(text: str) -> bool:
    """Whether ``text`` is written (partly) in a CJK script."""
    return WIDE.search(text) is not None


def _alike(a: Slot, b: Slot) -> bool:
    """Two values of one shape (and one unit), or one file at two paths."""
    if a.shape != b.shape or a.text.casefold() == b.text.casefold():
        return False
    return (a.value and b.value) or (a.shape == "path" and a.key == b.key)


def changed_pairs(new: str, old: str) -> list[tuple[Slot, Slot]]:
    """``(old value, new value)`` pairs of one shape where ``new`` states another value
    than ``old`` did (a value ``old`` also states is no change)."""
    said = {s.text.casefold() for s in slots(old)}
    return [
        (o, n)
        for n in slots(new)
        if n.text.casefold() not in said
        for o in slots(old)
        if _alike(o, n)
    ]


def shaped_pairs(new: str, old: str) -> list[tuple[Slot, Slot]]:
    """The changed pairs whose shape alone says what they are (a quantity in one unit, a
    host, a URL, a pin…; names of one head) — not a bare number, not any two names."""
    pairs = [p for p in changed_pairs(new, old) if p[0].shape not in ("num", "name")]
    return pairs + name_pairs(new, old)


def keyed_pairs(new: str, old: str, cues: Cues | None = None) -> list[tuple[str, str]]:
    """``(old value, new value)`` where ``new`` gives a value ``old`` states another one:
    under the same key (``Django 4.2`` / ``Django 5.0``), as a library of one head, or in
    the same frame as the clause of ``old`` that states it ("at most 500 rows per file" /
    "1000 rows per file")."""
    out = []
    for o, n in changed_pairs(new, old):
        if (o.key and o.key == n.key) or relation(new, clause(old, o.text), cues) == "frame":
            out.append((o.text, n.text))
    return out + [(o.text, n.text) for o, n in name_pairs(new, old)]


def _subjects(text: str, moved: frozenset[str] = frozenset()) -> set[str]:
    return {s.text.casefold() for s in slots(text) if not s.value and s.text not in moved}


def relation(new: str, old: str, cues: Cues | None = None) -> str:
    """Why ``new`` replaces ``old`` without a cue word ("" when it does not): ``key`` (one
    named subject, another value), ``name`` (a library of the same kind), ``frame`` (the
    same words around another value)."""
    pairs = changed_pairs(new, old)
    names = name_pairs(new, old)
    if not pairs and not names:
        return ""
    if cues is not None and parts_differ(new, old, cues.concepts):
        return ""  # "Spark 3.3 on the old cluster" / "3.4 on the new cluster": two parts
    if any(
        o.key
        and o.key == n.key
        and o.shape != "path"
        and not (o.shape in _CONFIG_KEYS and qualified(new, old, n, o, cues))
        and not (o.key.startswith(PER_PART_KEYS) and per_part(new, old, n, o, cues))
        for o, n in pairs
    ):
        return "key"
    if any(o.shape == n.shape == "path" and o.key == n.key and _rehosted(o, n) for o, n in pairs):
        return "key"  # quay.io/sre/op → harbor.corp.net/sre/op: one image, another registry
    if names and frame(new, cues) & frame(old, cues):
        return "name"
    moved = frozenset(s.text for pair in pairs if pair[0].shape == "path" for s in pair)
    if not pairs or _subjects(new, moved) != _subjects(old, moved):
        return ""  # src/api.py vs src/db.py, DATABASE_URL vs REDIS_URL: two things
    if len(new.split()) > MAX_WORDS or len(old.split()) > MAX_WORDS:
        return ""
    # AWS_REGION=… / AWS_PROFILE=…: two keys are two subjects, whatever the frame
    pairs = [(o, n) for o, n in pairs if not (o.key and n.key != o.key and o.shape in _NAMED_KEYS)]
    if topics_differ(new, old):
        return ""  # 测试环境超时 5 秒 / 生产环境超时 30 秒: one setting, two environments
    if pairs and _framed(frame(new, cues), frame(old, cues)):
        return "frame"
    for o, n in pairs:
        if _framed(frame(clause(new, n.text), cues), frame(clause(old, o.text), cues)):
            return "frame"
    return ""


_HOST = re.compile(r"^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}$")


def _rehosted(o: Slot, n: Slot) -> bool:
    """Two paths of one last segment, each opening with another host name (a registry, a
    repository host): the same thing moved to another host."""
    hosts = [s.text.split("/", 1)[0].casefold() for s in (o, n)]
    return (
        all(_HOST.match(h) and not FILE_END.search(h) for h in hosts)
        and hosts[0] != hosts[1]
        and all(s.text.count("/") >= 1 for s in (o, n))
    )


def same_subjects(new: str, old: str) -> bool:
    """Whether the two texts name the same subjects (paths, variables, tickets…)."""
    return _subjects(new) == _subjects(old)


def name_pairs(new: str, old: str) -> list[tuple[Slot, Slot]]:
    """Library-like names (a file-like name counts) of one head in ``old`` and ``new``."""
    said = {s.text.casefold() for s in slots(old)}
    olds = [s for s in slots(old) if s.head and s.shape in ("name", "file")]
    news = [
        s
        for s in slots(new)
        if s.head and s.shape in ("name", "file") and s.text.casefold() not in said
    ]
    return [
        (o, n)
        for o in olds
        for n in news
        if o.head == n.head
        and o.text.casefold() != n.text.casefold()
        and not (o.shape == n.shape == "file")
    ]


__all__ = [
    "PER_PART_KEYS",
    "changed_pairs",
    "cjk",
    "frame",
    "keyed_pairs",
    "name_pairs",
    "nearest_parts",
    "per_part",
    "qualified",
    "relation",
    "same_subjects",
    "shaped_pairs",
    "topics_differ",
]
