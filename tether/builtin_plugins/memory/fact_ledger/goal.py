"""The goal of a session: which sentences of its defining message state it, and what of it is
shown once later facts changed some of them.

The goal's later sentences that hold a value are filed as facts of their own too
(:func:`goal_parts`), tied to the goal by ``parent``: a later change retires them as it would
any rule, and :func:`goal_shown` shows the goal without the clause the change replaced.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.extract import Statement, classify, flat
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.ledger import Ledger
from tether.builtin_plugins.memory.fact_ledger.negation import rule_cue
from tether.builtin_plugins.memory.fact_ledger.words import (
    CLAUSES,
    WIDE,
    negated,
    word_count,
    words_of,
)


def asks(statement: Statement, cues: Cues) -> bool:
    """A sentence that is a request when read on its own (a short one is not a remark)."""
    return statement.kind == "request" or (
        statement.kind == "constraint" and classify(statement.text, cues) == "request"
    )


_LEAD_LABEL = re.compile(r"^[^:：\s]{1,12}[:：]\s*")  # "Task: ", "任务："
MAX_SUBJECT_WORDS = 2  # before the rule cue of a sentence asking for work ("We need to")
MAX_WIDE_LEAD = 3  # characters of a subject and a modal before a task verb ("我们要把…")


def asks_for_work(statement: Statement, cues: Cues) -> bool:
    """A sentence filed as a rule that asks for the work all the same: a task verb opens it
    after a short label ("Task: port …"), after a rule cue a word or two open it with ("We
    need to port …", "需要把…"), after a few characters of a script without spaces
    ("我们要把…") — or opens it when a change word made it a rule ("把导出改成异步任务").
    Never a prohibition."""
    text = statement.text
    if statement.kind == "request" or negated(text):
        return False
    if cues.has("task", text) and classify(text, cues) == "request":
        return True
    rests = [_LEAD_LABEL.sub("", text, count=1)]
    cue = cues.find("constraint", text)
    if cue is not None and len(text[: cue[0]].split()) <= MAX_SUBJECT_WORDS:
        rests.append(text[cue[1] :])
    rests += [text[i:] for i in range(1, MAX_WIDE_LEAD + 1) if WIDE.fullmatch(text[i - 1])]
    return any(rest != text and cues.has("task", rest.lstrip(" ,:：")) for rest in rests)


MAX_GREETING_WORDS = 3  # a CJK character counts as half a word ("お疲れ様です。")


def greets(statement: Statement, cues: Cues) -> bool:
    """A sentence that only greets ("Morning.", "Hello there!", "お疲れ様です。"): a request
    of a few words, no digit, no task or goal cue."""
    text = statement.text
    size = len(re.findall(r"\w+", WIDE.sub(" ", text))) + len(WIDE.findall(text)) / 2
    return (
        statement.kind == "request"
        and size <= MAX_GREETING_WORDS
        and not any(ch.isdigit() for ch in text)
        and not cues.has("task", text)
        and not cues.has("goal", text)
    )


def _asked(said: Sequence[Statement], cues: Cues) -> list[Statement]:
    """Without a ``goal`` cue: the requests; with none, the first sentence filed as a rule
    that asks for the work (:func:`asks_for_work`), else the first sentence — so a setting
    said first ("The DB is at db-1:3306.", "数据库在 …") is not taken for the goal — with
    the short sentences after it that only go on describing it (:func:`_describes`)."""
    run = [s for s in said if s.kind == "request"]
    if not run:
        work = next((s for s in said if asks_for_work(s, cues)), None)
        run = [work if work is not None else said[0]]
    for more in said[said.index(run[-1]) + 1 :]:  # "… invoicing. PDF invoices, emailed monthly."
        if not _describes(more, cues):
            break
        run.append(more)
    return run


MAX_DESCRIBING_WORDS = 8  # a fragment that goes on describing the goal (CJK: 2 chars a word)


#: A sentence with a subject of its own ("The sync pulls from …", "我们用 …"): it states
#: something, where a fragment ("PDF invoices, emailed monthly.") goes on describing the goal.
_SUBJECT = re.compile(
    r"^\W*(?:(?:the|a|an|this|that|these|those|it|its|we|i|you|they|our|my|there)\b"
    r"|我|你|他|她|它|这|那|咱)",
    re.IGNORECASE,
)


def _describes(statement: Statement, cues: Cues) -> bool:
    """A short fragment after the goal's sentence that only goes on describing it: filed as
    a rule for being said in passing, with no subject, rule cue, negation, question or value."""
    text = statement.text
    return (
        statement.kind == "constraint"
        and not _SUBJECT.match(text)
        and word_count(text) <= MAX_DESCRIBING_WORDS
        and not rule_cue(text, cues)
        and not negated(text)
        and not text.rstrip().endswith(("?", "？"))
        and not _VALUE.search(text)
    )


def goal_sentences(
    statements: Sequence[Statement], cues: Cues
) -> tuple[list[Statement], list[Statement]]:
    """The sentences of the defining message that state the goal, and those of them that are
    also kept as facts of their own. With a ``goal`` cue ("I'd like you to", "希望您能",
    "我们打算"), however polite: the run of sentences around the first cued one (requests and
    cued sentences; a cued rule stays a rule too when another sentence of the run asks). Else
    the requests (or the first sentence; see :func:`_asked`)."""
    said = [s for s in statements if s.kind != "identifier"]
    cued = [i for i, s in enumerate(said) if cues.has("goal", s.text)]
    if not cued:
        while len(said) > 1 and greets(said[0], cues):
            said = said[1:]  # "Morning. So the context is …": the greeting is not the goal
        return _asked(said, cues), []
    first = last = cued[0]
    while first > 0 and asks(said[first - 1], cues):
        first -= 1
    while last + 1 < len(said) and (asks(said[last + 1], cues) or last + 1 in cued):
        last += 1
    run = said[first : last + 1]
    asking = [s for s in run if asks(s, cues) and cues.has("task", s.text)] + [
        said[i] for i in cued if first <= i <= last
    ]
    kept = [s for s in run if not asks(s, cues) and any(a is not s for a in asking)]
    return run, kept


_VALUE = re.compile(
    r"\d|`|[\w-]+\.[A-Za-z]|/\w|=|\b[a-z][a-z0-9]*[-_][a-z0-9]+[-_a-z0-9]*\b|(?<![\w-])--?[A-Za-z]"
)
#: A name: a capitalized word after a lower-case one ("queue lives in Redis", "gets a CSV
#: export"), or a Latin word in a sentence of a script without spaces ("序列化先用 protobuf").
_NAME = re.compile(r"(?<=[a-z,] )[A-Z][\w-]+")
_LATIN = re.compile(r"[A-Za-z][\w-]+")


def goal_parts(asked: Sequence[Statement], kept: Sequence[Statement], goal: str) -> list[Statement]:
    """The sentences of a goal after its first that hold a value (a number, a name with a
    dot, a path, code, a setting, a flag, a product name): filed as facts of their own too,
    so that a later change retires them and the goal is shown without them (:func:`goal_shown`)."""
    return [s for s in asked[1:] if s not in kept and s.text in goal and _holds_value(s.text)]


def _holds_value(text: str) -> bool:
    """A value, a flag, a name (see :data:`_NAME`)."""
    wide = WIDE.search(text) is not None
    return bool(_VALUE.search(text) or _NAME.search(text) or (wide and _LATIN.search(text)))


def verbatim(text: str, asked: Sequence[Statement]) -> str:
    """The words of ``asked`` as ``text`` has them: each run of neighbouring sentences
    verbatim (no space added between two Chinese sentences), runs joined by a space."""
    whole = flat(text, len(text) + 1)
    runs: list[tuple[int, int]] = []
    at = 0
    for statement in asked:
        start = whole.find(statement.text, at)
        if start < 0:
            return " ".join(s.text for s in asked)
        end = start + len(statement.text)
        if runs and not whole[runs[-1][1] : start].strip():
            runs[-1] = (runs[-1][0], end)
        else:
            runs.append((start, end))
        at = end
    return " ".join(whole[a:b] for a, b in runs)


def in_goal(ledger: Ledger, fact: Fact) -> bool:
    """Whether ``fact`` is a sentence of the goal filed on its own (shown in the goal)."""
    goal = ledger.goal()
    return goal is not None and bool(fact.parent) and fact.parent == goal.id


def goal_shown(ledger: Ledger) -> str:
    """The goal's text without its sentences a later fact changed or revoked (see
    :func:`goal_parts`): an old value is never shown in it as current."""
    goal = ledger.goal()
    if goal is None:
        return ""
    text = goal.text
    parts = [f for f in ledger.facts if f.parent == goal.id and not f.live]  # retired ones
    for fact in parts:
        if fact.kind != "identifier":
            by = ledger.get(fact.replaced_by) if fact.replaced_by else None
            text = text.replace(fact.text, _unchanged_clauses(fact.text, by), 1)
    if text != goal.text:  # a clause a part kept, retired later on its own ("…, … and …")
        for fact in ledger.facts:
            if _kept_clause(parts, goal, fact) and fact.text in text:
                by = ledger.get(fact.replaced_by) if fact.replaced_by else None
                text = _ELLIPSES.sub("…", text.replace(fact.text, _cut(fact.text, by), 1))
    return " ".join(text.split()) if text != goal.text else text


#: Neighbouring cuts, with what only joined them ("…, …", "… and …", "…，…").
_ELLIPSES = re.compile(r"…(?:(?:\s*(?:[.,;。，；、]|\band\b|\bor\b))*\s*…)+")


def _kept_clause(parts: list[Fact], goal: Fact, fact: Fact) -> bool:
    """A retired sentence of the goal's message that no part of the goal is, but a clause
    that a retired part (of ``parts``) left standing (filed on its own without a parent)."""
    return (
        not fact.live
        and fact.kind not in ("identifier", "said", "request", "goal")
        and not fact.parent
        and fact.source == goal.source
        and any(fact.text in p.text and p is not fact for p in parts)
    )


def _cut(text: str, by: Fact | None) -> str:
    """:func:`_unchanged_clauses`, or "…" where that leaves nothing."""
    return _unchanged_clauses(text, by) or "…"


def cut_from_goal(ledger: Ledger, value: str, shown: str) -> bool:
    """Whether ``value`` was said in a goal sentence a later fact changed or revoked (so it
    is not in ``shown``, the :func:`goal_shown` text), and that fact does not name it (by its
    last path part) again: an old value."""
    goal = ledger.goal()
    if goal is None or value not in goal.text or value in shown:
        return False
    for fact in ledger.facts:
        if fact.parent == goal.id and not fact.live and value in fact.text:
            by = ledger.get(fact.replaced_by) if fact.replaced_by else None
            last = value.rstrip("/").rsplit("/", 1)[-1]  # "s3://x/orders/": "orders"
            named = re.search(rf"(?<![\w-]){re.escape(last)}(?![\w-])", by.text) if last else None
            return by is None or named is None  # "vendor_orders/" names no "orders"
    return False


def _unchanged_clauses(text: str, by: Fact | None) -> str:
    """``text`` without its clauses that ``by`` changed (those sharing most words with it,
    as "…": "presence in Redis, at redis-a:6379" changed to another Redis host loses both);
    nothing when ``by`` shares no word with a clause, changes them all, or there is no ``by``."""
    if by is None:
        return ""
    new = words_of(_changing_part(by.text, text))
    clauses = [c for c in CLAUSES.split(text) if c.strip()]
    shared = [len(words_of(c) & new) for c in clauses]
    if len(clauses) < 2 or max(shared) == 0 or min(shared) == max(shared):
        return ""
    for clause, count in zip(clauses, shared, strict=True):
        if count == max(shared):
            text = text.replace(clause, "…", 1)
    return _ELLIPSES.sub("…", text)


def _changing_part(change: str, old: str) -> str:
    """The clauses of ``change`` that bring a number ``old`` does not hold ("…goes to 16
    since…" of "…goes to 16 since…, the rest stays as it is"), else all of ``change``."""
    numbers = set(_NUMBER.findall(old))
    bringing = [c for c in CLAUSES.split(change) if set(_NUMBER.findall(c)) - numbers]
    return " ".join(bringing) or change


_NUMBER = re.compile(r"\d+(?:\.\d+)*")

__all__ = [
    "asks",
    "asks_for_work",
    "greets",
    "cut_from_goal",
    "goal_parts",
    "goal_sentences",
    "goal_shown",
    "in_goal",
    "verbatim",
]
