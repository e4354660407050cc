"""What a bare number counts: "8 parallel load tasks" and "16 parallel loads" count one thing,
"3 kafka brokers" and "12 kafka broker partitions" two (read by :mod:`.implicit`)."""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger.slots import WORD_STOP
from tether.builtin_plugins.memory.fact_ledger.words import vocabulary, word_root

_WEAK = vocabulary("weak_subject")
#: What a count of work is counted in ("load tasks", "bake jobs"), as :func:`word_root` ends it.
_WORK_UNITS = frozenset(map(word_root, "task job process thread worker instance run slot".split()))
#: What does the work: a count of these is a count of its own ("2 build runner jobs").
_DOERS = frozenset(map(word_root, "runner executor node server machine box agent".split()))


def counted(text: str, end: int) -> tuple[str, ...]:
    """The words a bare number counts: those right after it, up to a stop word."""
    after = re.match(r"\s*((?:[A-Za-z][\w-]*\s*){1,3})", text[end:])
    words = []
    for word in after.group(1).split() if after else []:
        if word.casefold() in WORD_STOP or word.casefold() in _WEAK:
            break
        words.append(word_root(word.casefold()))
    return tuple(words)


def one_count(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Whether two numbers count one thing: the same last word ("8 shards" / "16 shards"),
    or two words or more that the other only follows with a unit of work ("16 parallel
    loads" / "8 parallel load tasks"; not "3 kafka brokers" / "12 kafka broker partitions")."""
    if (a[-1:] or ("",)) == (b[-1:] or ("",)):
        return True
    short, long = sorted((a, b), key=len)
    return (
        len(short) >= 2
        and long == (*short, *long[len(short) :])
        and set(long[len(short) :]) <= _WORK_UNITS
        and short[-1] not in _WORK_UNITS | _DOERS  # "8 celery workers" / "2 … worker threads"
    )


__all__ = ["counted", "one_count"]
