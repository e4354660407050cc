"""A change whose value the user leaves to the assistant: "those have 64 cores, so bump jobs
accordingly", then "Updated runs-on … and --jobs=64".

A user rule with a verb of change ("bump", "raise", "adjust", 调大) that names a setting's
key as a plain word ("jobs", "workers", "timeout") but gives it no value of its own delegates
the value. When the assistant's next
message sets that key ("--jobs=64", "timeout=120", "workers: 8"), the setting is filed as an
identifier of the user's rule (its words verbatim, the user's entry as its source): what the
change came to. Only that next message counts, and only keys the rule names.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.extract import Statement
from tether.builtin_plugins.memory.fact_ledger.fact import Fact
from tether.builtin_plugins.memory.fact_ledger.identifiers import identifiers
from tether.builtin_plugins.memory.fact_ledger.ledger import Ledger

#: A setting as the assistant writes it: "--jobs=64", "--jobs 64", "timeout=120", "workers: 8".
_SETTING = re.compile(
    r"(?<![\w-])(?P<whole>-{0,2}(?P<key>[A-Za-z][\w.-]*[A-Za-z0-9])(?:=|:\s*|\s+(?=\d))"
    r"(?P<value>[\w.:/-]*\d(?:[\w:/-]|\.\w)*))"
)
_RULES = ("constraint", "decision", "request")


def delegating(filed: Sequence[Fact], cues: Cues) -> list[Fact]:
    """The rules of one user message that change something without saying to what."""
    return [
        f
        for f in filed
        if f.live
        and f.kind in _RULES
        and (found := _CHANGE.search(f.text)) is not None
        and not any(ch.isdigit() for ch in f.text[found.end() :])
    ]


#: A verb that changes a setting by some amount: "bump jobs accordingly", "raise workers to
#: match", "scale the pool up", "调大并发".
_CHANGE = re.compile(
    r"\b(?:bump|raise|lower|increase|decrease|reduce|adjust|scale|update|change)\b"
    r"|调大|调小|调高|调低|调整|加大|减小",
    re.IGNORECASE,
)


def _after_cue(text: str) -> str:
    found = _CHANGE.search(text)
    return text[found.end() :] if found else text


def file_delegated(ledger: Ledger, rules: Sequence[Fact], said: str, cues: Cues) -> None:
    """File each setting the assistant's message ``said`` makes of a key one of ``rules``
    names as a plain word after its change cue, as an identifier of that rule."""
    if not rules:
        return
    for match in _SETTING.finditer(said):
        key = match.group("key").casefold()
        word = re.compile(rf"(?<![\w-]){re.escape(key)}\b", re.IGNORECASE)
        rule = next((r for r in rules if word.search(_after_cue(r.text))), None)
        subject = next((k for t, k in identifiers(said) if t == match.group("whole")), None)
        if rule is None or subject is None:
            continue
        token = match.group("whole")
        ledger.add(Statement("identifier", token, rule.source, key=subject, parent=rule.text), cues)


__all__ = ["delegating", "file_delegated"]
