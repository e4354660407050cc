"""An error in a pasted log line: "2024-11-19T07:52:40Z ERROR handler:88 KeyError: 'id'".

A log line opens with a timestamp, a level and often the logger (with its line); at an
error level (ERROR, FATAL, CRITICAL, E) the message after them is an error said by the user,
though the line does not open with it. A level alone opens a line too ("E: …", "[ERROR] …");
of lines logged at an error level that name no error by shape, the first that says something
in words is the error (:func:`first_logged_error`).
"""

from __future__ import annotations

import re

_LEVEL = r"(?:ERROR|FATAL|CRITICAL|ERR|E)"
_PREFIX = re.compile(
    r"^(?:\[?(?:\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?"
    r"|\d{2}:\d{2}:\d{2}(?:[.,]\d+)?)\]?\s+"  # a timestamp, then an error level
    rf"\[?{_LEVEL}\]?[:\s]|\[{_LEVEL}\]|{_LEVEL}:)\s*"  # or a level alone: "E: ", "[ERROR]"
)
#: A time stamp and the marks a tool prints after it: "[14:02:11]: ▸ ❌  ", "12:00:01 | ".
_STAMP = re.compile(
    r"^\[?(?:\d{4}-\d{2}-\d{2}[T ])?\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\]?:?"
    r"\s+(?:[^\w\s]+\s+)*"
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


def stamped_message(row: str) -> str:
    """What ``row`` says after a time stamp and the marks after it ("" without one): a
    tool's log line "[14:02:11]: ▸ ❌  error: Signing for …" says "error: Signing for …"."""
    found = _STAMP.match(row)
    return row[found.end() :] if found else ""


#: A tool's message that opens by naming an error in words: "error: Signing for … requires a
#: team" (not a metric, "error: 0.153", nor "error: none").
_SAYS_ERROR = re.compile(r"(?:fatal\s+)?error\s*:\s*(?!none\b)[A-Za-z\"'\u3400-\u9fff]", re.I)
#: A line that only wraps an error said elsewhere: "error: task exited with code 1", "… see above".
_WRAPPER = re.compile(r"\bexit(?:ed|s)?\b.{0,20}\d|\bsee above\b|\bstep \d+ failed\b", re.I)
#: A later line saying the run went well after all: "connected", "migration complete", "OK".
_SUCCEEDED = re.compile(
    r"\b(?:succeeded|successful(?:ly)?|completed?|done|connected|passed|ok|finished|listening"
    r"|provisioned|established|saved)\b|成功|完成",
    re.IGNORECASE,
)
#: The user saying so, anywhere in the message: "works now", "fixed it", "跑通了".
_WENT_WELL = re.compile(r"\b(?:works now|worked|fixed it|all green|it's green)\b|跑通了|好了", re.I)


def stamped_error(rows: list[str]) -> str:
    """The first of ``rows`` whose stamped message names an error in words, is no wrapper of
    one said elsewhere, and is not followed by a line saying the run went well, in a message
    that does not say so either ("" if none); read only where no line is an error otherwise
    (:func:`~.extract.pasted_error`)."""
    if any(_WENT_WELL.search(row) for row in rows):
        return ""
    last_success = max((at for at, row in enumerate(rows) if _SUCCEEDED.search(row)), default=-1)
    for at, row in enumerate(rows):
        if (
            at >= last_success  # no line after it says the run went well
            and _SAYS_ERROR.match(stamped_message(row))
            and not _WRAPPER.search(row)
        ):
            return row
    return ""


def first_logged_error(rows: list[str]) -> str:
    """The first of ``rows`` logged at an error level whose message is words, not a banner
    ("E: ***** USAGE FAULT *****") — the register dump after it says less ("" if none)."""
    for row in rows:
        said = logged_messages(row)
        if said and re.search(r"[a-z]{2,}\s+\w+", said[0]):
            return row
    return ""


#: A line of a log or test run, not prose: a timestamp (a date or a time to the second maybe in
#: brackets: "[2024-05-03, 09:12:44 UTC] {…} WARNING - …", "[09:12:44] WARN …"; not a chat's
#: "[10:30] standup moved, …"; not "04:15 then"), a level column, a rule, a result.
LOG_LINE = re.compile(
    r"^\s*(?:\[?\d{2,4}[-/]\d{2}|\[\d{2}:\d{2}:\d{2}|\d{2,4}:\d{2}(?![,\s]+then\b)"
    r"|[EWIF] {2,}|={3,}|-{3,}|\.{3,}|PASSED|FAILED|at |File \"|\$ |> )"
)

__all__ = [
    "LOG_LINE",
    "first_logged_error",
    "logged_messages",
    "stamped_error",
    "stamped_message",
]
