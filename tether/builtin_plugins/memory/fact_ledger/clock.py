"""Times of day on a 24-hour clock: "23:30", "nightly at 02:00", "Sundays at 06:00".

A clock time is a value of its own class (never a host and port, :data:`~.extract.CLOCK`),
with the days it is on; a time right after "before", "by" or "until" is a deadline, not when
a job runs, and is no value.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tether.builtin_plugins.memory.fact_ledger.extract import CLOCK

#: A time of day on a 24-hour clock, with the days it is on: "Sundays at 06:00", "23:30".
_CLOCK_TIME = re.compile(
    r"(?:\b(?:every|each|on)\s+(?:\w+\s+){0,3}?|\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
    r"|nightly|daily|weekdays)\s+)?(?:\bat\s+)?(?<![\w.:])" + CLOCK,
    re.IGNORECASE,
)
#: Words before a clock time that make it a deadline, not when a job runs ("before 05:30").
_DEADLINE = re.compile(r"\b(?:before|by|until|till|than|latest)\s*$", re.I)


def clock_times(text: str) -> Iterator[re.Match[str]]:
    """The clock times of ``text`` (with their days), deadlines left out."""
    for match in _CLOCK_TIME.finditer(text):
        if not _DEADLINE.search(text[max(0, match.start() - 16) : match.start()]):
            yield match


__all__ = ["clock_times"]
