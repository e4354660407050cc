"""A user's short reply to the assistant's either/or question: a decision, kept verbatim.

When the assistant offers a choice ("X or Y for the queue?", "1) cron 2) systemd timers —
which one?", "用批处理还是流式？"), a terse user answers with the bare choice and, often, a
reason or another preference in the same breath: "y. x is overkill, no thanks", "option 2",
"the second one, but with retries", "选 1，但是每晚只跑一次". No cue word marks such a reply,
so read sentence by sentence it is a bare name and a fragment. Read as what it is — the
user's decision in the user's own words — the whole reply is one decision fact, verbatim.

A next step said in the reply stays a next step of its own (the latest one is in force);
identifiers of the reply stay, filed under the whole reply (they retire with it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.extract import (
    Statement,
    classify,
    flat,
    sentences,
)
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.ledger import Ledger
from tether.builtin_plugins.memory.fact_ledger.words import vocabulary

MAX_ANSWER = 200  # characters: a longer reply is a message of its own, read sentence by sentence
MAX_ANSWER_SENTENCES = 3
MAX_CHOICE_WORDS = 4  # "podman.", "the managed one": a bare choice opening a reply
MAX_ASKED = 1500  # characters: the end of the assistant's message, where it asks
_QUESTION = re.compile(r"[^.!?。！？\n]*[?？]")
#: What offers a choice in a question: two named things, or options to pick from.
_OFFERS = re.compile(
    r"\bor\b|\bvs\.?\b|\bversus\b|\bwhich\b|\beither\b|\boption|\bprefer|还是|或者|或是|哪个|哪种"
    r"|哪一|选哪|方案|选项",
    re.IGNORECASE,
)
_OPTIONS = re.compile(r"(?:^|\n)\s*(?:\(?\d{1,2}[.)、]|[-*•]|[a-dA-D][.)]|option \d)\s*\S", re.I)


_OR = re.compile(r"([\w.+#-]+)\s*(?:\bor\b|\bvs\.?|\bversus\b|还是|或者|或是)\s*", re.I)
_TOKEN = re.compile(r"[\w.+#-]+")
_STOP = vocabulary("option_noise")


def offers_choice(text: str) -> bool:
    """Whether an assistant's text asks the user to choose (a question naming options)."""
    text = text[-MAX_ASKED:]  # the question the user answers closes the message
    if "?" not in text and "？" not in text:
        return False
    questions = [q for q in _QUESTION.findall(text) if q.strip()]
    if not questions:
        return False
    if any(_OFFERS.search(q) for q in questions):
        return True
    return len(_OPTIONS.findall(text)) >= 2  # a list of options, then "what do you think?"


def choice_key(text: str) -> str:
    """``choice:a|b`` — the two things an either/or question names ("" when it names none)."""
    for question in _QUESTION.findall(text[-MAX_ASKED:]):
        found = _OR.search(question)
        if not found:
            continue
        after = [w for w in _TOKEN.findall(question[found.end() :]) if w.casefold() not in _STOP]
        first, second = found.group(1).casefold().strip("."), (after[0] if after else "")
        if (
            not first.isascii() and not second.isascii()
        ):  # "报表用增量还是全量": as long as the other
            first = first[-max(len(second), 2) :]
        pair = {first, second.casefold()}
        pair -= _STOP | {""}
        if len(pair) == 2:
            return "choice:" + "|".join(sorted(pair))
    return ""


def _at(option: str, text: str) -> int:
    """Where ``option`` is named in ``text`` (-1: not named)."""
    if not option.isascii():
        return text.find(option)
    found = re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text.casefold())
    return found.start() if found else -1


def _named(option: str, text: str) -> bool:
    return _at(option, text) >= 0


def retire_answered(ledger: Ledger, filed: Sequence[Fact], cues: Cues) -> None:
    """A later answer to the same either/or question, or a changed statement that names the
    other option ("x after all", "改用 x"), retires the earlier answer — one that named an
    option; a question asked again in passing retires nothing by itself."""
    answers = [f for f in ledger.live("decision") if f.key.startswith("choice:")]
    for new in filed:
        if new.kind == "identifier" or not new.live:
            continue
        for old in answers:
            if old is new or not old.live or old.source == new.source:
                continue
            options = old.key.split(":", 1)[1].split("|")
            chosen = sorted((_at(o, old.text), o) for o in options if _at(o, old.text) >= 0)[:1]
            chosen = [o for _, o in chosen]  # the one named first: "y. x is overkill" chose y
            other = [o for o in options if o not in chosen and _named(o, new.text)]
            if not chosen:
                continue  # an answer that names no option ("the second one") stays
            again = new.key == old.key and any(_named(o, new.text) for o in options)
            if again or (other and (cues.has("change", new.text) or new.key)):
                ledger.retire(old, new)


def is_answer(text: str, cues: Cues) -> bool:
    """Whether a user turn after such a question is a short answer (not a question back, not
    a long message of its own)."""
    said = sentences(text)
    short = flat(text)
    return (
        0 < len(said) <= MAX_ANSWER_SENTENCES
        and len(short) <= MAX_ANSWER
        and not short.endswith(("?", "？"))
        and any(ch.isalnum() for ch in short)
    )


def _bare_choice(text: str, cues: Cues) -> bool:
    """A name and no more ("podman.", "the managed one", "增量。"): what was chosen."""
    body = text.rstrip(" .。!！")
    size = len(body.split()) if body.isascii() else len(body)
    limit = MAX_CHOICE_WORDS if body.isascii() else 2 * MAX_CHOICE_WORDS
    return 0 < size <= limit and not cues.has("task", body)


def answer_statements(
    text: str, statements: Sequence[Statement], source: str, cues: Cues, key: str = ""
) -> list[Statement]:
    """``statements`` of an answer read as the answer: the whole reply one decision, its next
    steps and identifiers kept."""
    said = [s for s in statements if s.kind != "identifier"]
    if not said:
        return list(statements)
    first = said[0]
    bare = len(said) > 1 and _bare_choice(first.text, cues)
    if all(s.kind != "request" for s in said) and not bare:
        return list(statements)  # each sentence a fact of its own already: a change retires one
    if len(said) > 1 and any(classify(s.text, cues) != "request" for s in said):
        # a sentence with a cue of its own ("never …", "use X instead") stays a fact of its
        # own, so that a later change retires it alone; a bare choice before it is the decision
        if bare:
            return [replace(s, kind="decision") if s is first else s for s in statements]
        return list(statements)
    whole = flat(text)
    out = [Statement("decision", whole, source, change=any(s.change for s in said), key=key)]
    for statement in statements:
        if statement.kind in ("next_step", "error"):
            out.append(statement)  # the step in force stays one of its own
        elif statement.kind == "identifier":
            out.append(replace(statement, parent=whole) if statement.parent else statement)
    return out


#: A yes and one name: "yeah restic", "ok, terraform".
_YES_NAME = re.compile(
    r"^\W*(?:yes|yeah|yep|yup|ok|okay|sure)[,!\s]+([A-Za-z][\w.+#-]*[\w+#])\W*$", re.IGNORECASE
)


def settled_names(statements: list[Statement], offer: str) -> list[Statement]:
    """A yes and one name the assistant's last message ``offer`` named ("yeah restic" after
    "vzdump for the VMs and restic for the Nextcloud data?") is a choice made, not a
    request; "ok wait", "yeah nope" name nothing it offered."""
    said = offer.casefold()
    out = []
    for statement in statements:
        found = _YES_NAME.match(statement.text) if statement.kind == "request" else None
        name = found.group(1).casefold() if found else ""
        if name and re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", said):
            statement = replace(statement, kind="decision")
        out.append(statement)
    return out


__all__ = [
    "answer_statements",
    "choice_key",
    "is_answer",
    "offers_choice",
    "retire_answered",
    "settled_names",
]
