"""An error in a pasted log line: "2024-11-19T07:52:40Z ERROR handler:88 KeyError: 'id'".

A log line opens with a timestamp, a level and often the logger (with its line); at an
error level (ERROR, FATAL, CRITICAL, E) the message after them is an error said by the user,
though the line does not open with it.
"""

from __future__ import annotations

import re

_PREFIX = re.compile(
    r"^\[?(?:\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?"
    r"|\d{2}:\d{2}:\d{2}(?:[.,]\d+)?)\]?\s+"  # a timestamp
    r"\[?(?:ERROR|FATAL|CRITICAL|ERR|E)\]?[:\s]\s*"  # an error level
)
_LOGGER = re.compile(r"\[?[\w.$/<>-]+(?::\d+)?\]?\s*[:-]?\s+")  # maybe with its line


def logged_messages(row: str) -> list[str]:
    """What ``row`` may say after its prefix when it is a log line at an error level: the
    rest, and the rest after a logger name ([] when it is no such line)."""
    found = _PREFIX.match(row)
    if found is None:
        return []
    rest = row[found.end() :]
    logger = _LOGGER.match(rest)
    return [rest, rest[logger.end() :]] if logger else [rest]


__all__ = ["logged_messages"]
