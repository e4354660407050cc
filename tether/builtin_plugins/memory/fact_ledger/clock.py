"""Times of day on a 24-hour clock: "23:30", "at 02:30 UTC", "nightly at 02:00", "Sundays at
06:00".

A clock time is a value of its own class (:func:`~.implicit.values`), never a host and port
(:data:`CLOCK` keeps it out of :func:`~.identifiers.identifier_spans`) nor part of a timestamp;
it is read with the days it is on and its zone. A time right after "before", "by" or "until"
is a deadline, not when a job runs, and is no value.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

#: The shape of a time of day ("02:00", "18:45:10"): not inside a timestamp or a version.
CLOCK = r"(?<![\w.:])(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?![\w:]|\.\d)"
#: A clock time with the days it is on and its zone: "Sundays at 06:00", "at 02:30 UTC".
_CLOCK_TIME = re.compile(
    r"(?:\b(?:every|each|on)\s+(?:\w+\s+){0,3}?|\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
    r"|nightly|daily|weekdays)\s+)?(?:\bat\s+)?" + CLOCK + r"(?:\s*(?:UTC|GMT|Z)\b)?",
    re.IGNORECASE,
)
#: Words before a clock time that make it a deadline, not when a job runs ("before 05:30").
_DEADLINE = re.compile(r"\b(?:before|by|until|till|than|latest)\s*$", re.I)


def clock_times(text: str) -> Iterator[re.Match[str]]:
    """The clock times of ``text`` (with their days and zone), deadlines left out."""
    for match in _CLOCK_TIME.finditer(text):
        if not _DEADLINE.search(text[max(0, match.start() - 16) : match.start()]):
            yield match


__all__ = ["CLOCK", "clock_times"]
