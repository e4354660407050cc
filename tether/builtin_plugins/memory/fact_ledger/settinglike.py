"""A sentence that states a setting though a task verb or a casual cue opens it: "部署区域
eu-central-1", "build cache: keep 7 days", "make the grid 512x512", "nah, go with yarn" — a
value in force, filed as a rule, not a task."""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.implicit import Value, values
from tether.builtin_plugins.memory.fact_ledger.words import CLAUSE_ENDS, STOP


def soft_value(text: str, cues: Cues) -> bool:
    """A casual change cue with a value ("nah, go with yarn", "let's do Postgres for the
    database", "重试就用 3 次吧"): the sentence states the value in force, not a task."""
    return cues.has("soft_change", text) and bool(values(text, cues))


#: "make the grid 512x512", "make batch size 64": a thing, then the value it is made.
_MADE = re.compile(
    r"\bmake\s+(?:the\s+|our\s+|my\s+|all\s+)?"
    r"(?!(?:it|that|this|them|sure|a|an|one|some|room|time|sense)\b)((?:[A-Za-z][\w-]*\s+){1,3})$",
    re.IGNORECASE,
)


def _made(text: str, value: Value) -> bool:
    """Whether ``value``, ending its clause, is what "make <thing>" makes the thing ("make the
    grid 512x512"; not "make the tests pass on Python 3.12", "make the importer accept 100 MB
    files")."""
    made = _MADE.search(text, 0, value.start)
    return (
        made is not None
        and CLAUSE_ENDS.match(text, value.start + len(value.text)) is not None
        and value.cls != "name"
        and not any(w.casefold() in STOP for w in made.group(1).split())
    )


def setting_like(text: str, cues: Cues) -> bool:
    """A short sentence whose task verb is part of a subject's name and that states a value
    ("部署区域 eu-central-1", "build cache: keep 7 days"), or that makes a thing a value ("make
    the grid 512x512"): a setting, not a task."""
    if len(text) > 160:
        return False
    if any(_made(text, v) for v in values(text, cues)):
        return True
    task = cues.find("task", text)
    if task is None:
        return False
    after = len(text[task[1] :]) - len(text[task[1] :].lstrip())
    near = any(
        h.start < task[1] + after + 1 and task[0] <= h.start
        for h in cues.concepts.find(text)
        if h.key.startswith("subject:")
    )
    return near and bool(values(text, cues))


__all__ = ["setting_like", "soft_value"]
