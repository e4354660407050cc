"""An option of the assistant's picked by its place: "yes, option B", "go with the second one",
"2", "就按第二个来", "方案二".

When the assistant's last message lists options ("(1) … or (2) …", "Option A: … Option B:
…", "方案一：…；方案二：…", a numbered or bulleted list) and asks, and the user's short reply
names one by its number, letter or ordinal (and finds no fault with it: "the second one is
wrong" picks nothing), the decision is that option in the assistant's words, verbatim
(noted as proposed and accepted): the reply alone says nothing once compacted. The option
replaces the earlier rule the offer was about — the one rule sharing the most words (at least
two; the name of what the rule chose counts twice) with what the offer says before its
options ("SQLite locks under concurrent writers … (2) put it on Redis streams" after "Use
SQLite for the job queue"; "wkhtmltopdf isn't in the container … (1) WeasyPrint" after "use
wkhtmltopdf for pdf rendering").
"""

from __future__ import annotations

import re
from typing import Protocol

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.extract import Statement
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.implicit import values
from tether.builtin_plugins.memory.fact_ledger.moot import resolve_moot
from tether.builtin_plugins.memory.fact_ledger.slots import slots
from tether.builtin_plugins.memory.fact_ledger.words import (
    WIDE,
    negated,
    vocabulary,
    word_search,
    words_of,
)


class Ledger(Protocol):
    """What picking needs of :class:`~.ledger.Ledger`."""

    facts: list[Fact]

    def live(self, *kinds: str) -> list[Fact]: ...

    def retire(self, old: Fact, new: Fact | None, status: str = "retired") -> None: ...

    def add(self, statement: Statement, cues: Cues | None = None) -> Fact: ...


ACCEPTED = "proposed by the assistant, accepted"
MAX_ASKED = 400  # characters: the end of the offer, where it asks which one
_FAULT = word_search("fault_words")  # "the second one is wrong", "第二个不对"
MAX_OFFER = 2000  # characters: the end of the assistant's message, where it offers
MAX_REPLY = 80  # characters: a longer reply is read as a message of its own
MIN_SHARED = 2  # words the replaced rule shares with the offer
_CN = "一二三四五六"
#: One option's marker: ``(1)``, ``1)``, ``1.`` or ``1、`` opening a line, ``Option A:``,
#: ``A)``, ``方案一：``, ``选项2``, ``第一种``; the group names its place.
_MARKER = re.compile(
    r"(?:^|(?<=[\s:：,，;；。.！？!?]))(?:\((\d)\)|(\d)[)）]|(?<![\w.])(\d)[.、](?=\s)"
    r"|(?:option|choice|approach|plan)\s+([A-Da-d1-6])\b\s*[:：.)-]?"
    r"|\(?([A-Da-d])\)|^[ \t]*([A-Da-d])[.、:：](?=\s)"
    rf"|(?:方案|选项|办法|思路)([{_CN}\dA-Da-d])[：:，,、]?|第([{_CN}\d])(?:种|个)?[方案办法]*[：:，,])",
    re.IGNORECASE | re.MULTILINE,
)
_END = re.compile(r"\n|[.!?;](?:\s|$)|[。！？；?？]")
_BULLET = re.compile(r"^[ \t]*[-*•][ \t]+(\S.*)$", re.MULTILINE)
_CLOSE = re.compile(r"(?:[,，;；]?\s*(?:or|and|或者|还是|或)\s*)$", re.IGNORECASE)
_ORDINALS = {
    **dict.fromkeys(("first", "1st", "former", "one"), 0),
    **dict.fromkeys(("second", "2nd", "two"), 1),
    **dict.fromkeys(("third", "3rd", "three"), 2),
    **dict.fromkeys(("fourth", "4th", "four"), 3),
    **dict.fromkeys(("last", "latter"), -1),
}
#: How a reply names a place: "option B", "the second one", "#2", "第二个", "方案二", "后者";
#: or a reply that opens with the bare mark and goes on: "2。先保守", "1 吧", "(b) only", "Bで".
_PICK = re.compile(
    r"\b(?:option|choice|approach|plan|number)\s*#?([A-Da-d1-6])\b|#([1-6])\b"
    r"|\bthe\s+(first|1st|second|2nd|third|3rd|fourth|4th|last|former|latter)\b"
    r"|\b(first|1st|second|2nd|third|3rd|fourth|4th|last)\s+(?:one|option|choice|approach|plan)\b"
    rf"|(?:第|方案|选项|选)([{_CN}\dA-Da-d])(?![A-Za-z])|([A-Da-d])方案|(前者|后者)"
    r"|^\W*([A-Da-d1-6])\W*$"
    r"|^\W*([A-Da-d1-6])(?:[)）]|\s*(?:[。，,!！;；]|\.\s*$|[吧呗啦]|好了|で(?:お願い|いい)|で(?!\w)))",
    re.IGNORECASE,
)


def _place(mark: str) -> int:
    """An option's place from its mark: ``2``, ``B``, ``二``, ``second``, ``后者`` (-1: last)."""
    mark = mark.casefold()
    if mark.isdigit():
        return int(mark) - 1
    if mark in _ORDINALS:
        return _ORDINALS[mark]
    if len(mark) == 1 and "a" <= mark <= "d":
        return ord(mark) - ord("a")
    if mark in _CN:
        return _CN.index(mark)
    return {"前者": 0, "后者": -1}.get(mark, -99)


def offered_options(text: str) -> list[str]:
    """The options the end of an assistant's ``text`` lists, in order, each in its words (an
    option ends at its sentence's end or the next option); [] when it lists fewer than two."""
    text = text[-MAX_OFFER:]
    marks = [(m, _place(next(g for g in m.groups() if g))) for m in _MARKER.finditer(text)]
    run: list[re.Match[str]] = []
    for match, place in marks:  # the first run of places 0, 1, 2…
        if place == len(run):
            run.append(match)
        elif run and place == 0:
            run = [match]
    if len(run) < 2:
        bullets = [b.group(1).strip() for b in _BULLET.finditer(text)]
        return bullets if len(bullets) >= 2 else []
    out = []
    for i, match in enumerate(run):
        stop = run[i + 1].start() if i + 1 < len(run) else len(text)
        body = text[match.end() : stop]
        end = _END.search(body)
        body = _CLOSE.sub("", body[: end.start()] if end else body).strip(" ,，:：-—")
        if not body:
            return []
        out.append(body)
    return out


def picked(reply: str, options: list[str]) -> str:
    """The option a short ``reply`` picks by its place ("" when it names none, or two)."""
    short = " ".join(reply.split())
    if not options or len(short) > MAX_REPLY:
        return ""
    places = {_place(next(g for g in m.groups() if g)) for m in _PICK.finditer(short)} - {-99}
    if len(places) != 1:
        return ""
    place = places.pop()
    return options[place] if -len(options) <= place < len(options) else ""


def file_pick(ledger: Ledger, reply: str, source: str, offer: str, cues: Cues) -> Fact | None:
    """The option ``reply`` picks of those ``offer`` lists, filed as an accepted decision
    that replaces the rule the offer was about (``None`` when it picks none)."""
    asks = "?" in offer[-MAX_ASKED:] or "？" in offer[-MAX_ASKED:]
    if not asks or negated(reply) or _FAULT.search(reply):
        return None  # a list of findings, or "the second one is wrong": no pick
    options = offered_options(offer)
    option = picked(reply, options)
    if not option:
        return None
    chosen = ledger.add(Statement("decision", option, source), cues)
    chosen.note = ACCEPTED
    _retire_offered(ledger, chosen, _preamble(offer[-MAX_OFFER:]), cues)
    _retire_passed_over(ledger, chosen, [o for o in options if o != option])
    return chosen


def _retire_passed_over(ledger: Ledger, chosen: Fact, others: list[str]) -> None:
    """Retire the earlier rules naming a tool or library only an option not picked names
    ("1) keep node-cron sweeping" passed over for BullMQ: "the sweep can be node-cron")."""
    names = {
        s.text
        for other in others
        for s in slots(other)
        if s.shape == "name" and len(s.text) > 2 and s.text not in chosen.text
    }
    for old in ledger.live("constraint") + ledger.live("decision"):
        if old is chosen or old.source == chosen.source or negated(old.text):
            continue
        if any(re.search(rf"(?<![\w.-]){re.escape(n)}(?![\w-])", old.text) for n in names):
            ledger.retire(old, chosen)


def _preamble(offer: str) -> str:
    """What the offer is about: its words before the first option, without the phrase that
    counts the options ("two ways", "两个方案"), which any rule with a number may share."""
    first = _MARKER.search(offer) or _BULLET.search(offer)
    return _COUNTED.sub(" ", offer[: first.start()] if first else offer)


_COUNTED = re.compile(
    r"\b(?:two|three|four|\d)\s+(?:ways|options|choices|approaches|plans|ideas)\b"
    rf"|[两{_CN}\d几]\s*[个种条]?\s*(?:方案|选择|办法|思路|选项)",
    re.IGNORECASE,
)


def retire_bare_picks(ledger: Ledger, chosen: Fact, cues: Cues) -> None:
    """The reply's facts that say no more than the pick ("yes, option B", "就按第二个来")
    retire into the option they picked: once compacted they would say nothing."""
    for fact in ledger.facts[-12:]:
        if fact is chosen or not fact.live or fact.source != chosen.source:
            continue
        if fact.kind in ("identifier", "goal", "error", "next_step"):
            continue
        rest = _PICK.sub(" ", fact.text)
        for kind in ("accept", "filler", "decision", "soft_change", "select", "choice", "task"):
            for _ in range(3):
                span = cues.find(kind, rest)
                if span is None:
                    break
                rest = rest[: span[0]] + " " + rest[span[1] :]
        wide = len(WIDE.findall(rest))
        words = [w for w in re.findall(r"[A-Za-z0-9]+", rest) if w.casefold() not in _NOISE]
        if len(fact.text) <= MAX_REPLY and wide <= MAX_REST_WIDE and len(words) <= MAX_REST:
            ledger.retire(fact, chosen)


MAX_REST = 1  # words a bare pick may hold beside its pick and cue words ("the", "it")
MAX_REST_WIDE = 3  # characters of a CJK script: "就按…来", "吧"
_NOISE = vocabulary("pick_noise")


def _retire_offered(ledger: Ledger, decision: Fact, about: str, cues: Cues) -> None:
    """Retire the one earlier rule the offer was ``about`` (see the module); the name of
    what the rule chose ("use wkhtmltopdf for …") counts twice: the offer is about it."""
    mine = words_of(about)
    best: tuple[int, Fact] | None = None
    for old in ledger.live("constraint") + ledger.live("decision"):
        if old is decision or old.source == decision.source or negated(old.text):
            continue  # a prohibition is no option: picking one never replaces it
        both = mine & words_of(old.text)
        named = {v.text.casefold() for v in values(old.text, cues) if v.cls == "name"}
        shared = len(both) + len(both & named)
        if shared >= MIN_SHARED and (best is None or shared > best[0]):
            best = (shared, old)
    if best is not None:
        ledger.retire(best[1], decision)
        resolve_moot(ledger, best[1], decision, cues)


__all__ = ["ACCEPTED", "file_pick", "offered_options", "picked", "retire_bare_picks"]
