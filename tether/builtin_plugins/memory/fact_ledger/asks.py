"""What a sentence asks for, beyond its cue words: work to do, an option taken, a thing wished.

- :func:`asks_for_work`: a question, or a verb of work or an ask opening one of its clauses
  ("Now can you sketch the layout", "Btw the CI is red, look into it first", "先帮我写…").
- :func:`option_taken`: "yes do that, the backfill runs online during the week" takes the
  offered option and says what holds (not "Yes, the tests are red again").
- :func:`wished`: "plain POSIX awk please, mawk is what's on the servers" wishes for a thing,
  with no verb, and says why: a preference ("Logs please." only asks for something).
"""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.cues import Cues

OPENING_REACH = 24  # characters of a clause where a request for work shows itself
_CLAUSE = re.compile(r"[,;，；。]\s*")
_CAN_YOU = re.compile(r"\b(?:can|could|would|will)\s+you\b|\bplease\b|麻烦|帮我", re.I)
_TAKEN = re.compile(r"\b(?:do|go with|take|use)\s+(?:that|this|it|option\s+\w+)\b", re.I)
#: "Debug builds are signed with…", "Test data lives in…", "the backfill runs online": a
#: statement of how a thing is, its first word the subject (not a request for work).
DECLARATIVE = re.compile(
    r"^\W*[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*)?\s+(?:is|are|was|were|has|have|gets?|stays?"
    r"|lives?|runs?|goes|go)\b",
    re.IGNORECASE,
)
_THING_PLEASE = re.compile(
    r"^\W*((?:[\w.+#/-]+\s+){0,3}[\w.+#/-]+)\s+(?:please|pls|plz)\b(?=\s*[,;]\s*\S)", re.I
)


def asks_for_work(sentence: str, cues: Cues) -> bool:
    """Whether ``sentence`` asks for work or a reply (see the module)."""
    if sentence.rstrip().endswith(("?", "？")):
        return True
    for clause in _CLAUSE.split(sentence):
        opening = clause[:OPENING_REACH]
        if _CAN_YOU.search(opening) or any(cues.has(k, opening) for k in ("task", "ask")):
            return True
    return False


def option_taken(sentence: str) -> bool:
    """Whether ``sentence`` takes an offered option and says what holds (see the module)."""
    head, _, rest = sentence.partition(",")
    stated = DECLARATIVE.match(rest.strip()) is not None
    return bool(rest) and stated and _TAKEN.search(head) is not None


def wished(sentence: str, cues: Cues) -> bool:
    """Whether ``sentence`` wishes for a thing and says why (see the module)."""
    wish = _THING_PLEASE.match(sentence)
    return wish is not None and not any(cues.has(k, wish.group(1)) for k in ("task", "ask"))


__all__ = ["DECLARATIVE", "asks_for_work", "option_taken", "wished"]
