"""The line of a failing tool's output that states the error, verbatim (:func:`error_line`)."""

from __future__ import annotations

import functools
import re

MAX_FACT = 1000  # as :data:`.extract.MAX_FACT`
_EXIT_LINE = re.compile(
    r"^(?:exit status \d+|exit code:? \d+|command exited with code \d+|process exited.*)$",
    re.IGNORECASE,
)
_ERROR_LINE = re.compile(
    r"error|exception|traceback|failed|failure|fatal|denied|not found|no such|cannot|can't"
    r"|invalid|refused|timed? ?out|panic|mismatch|unexpected|assert|错误|异常|失败",
    re.IGNORECASE,
)

#: A line that names the error itself: a typed error, ``error:``, "Shader error in …", a
#: compiler's ``file:line:col: message``, a panic; "Build completed … 'Failed'" is weaker.
_STRONG_ERROR = re.compile(
    r"^\s*(?:[\w.]*(?:Error|Exception)\b|E\s{2,}|FAILED\b|fatal:|panic:|npm ERR!)"
    r"|\berror\b|\bpanicked\b|^\s*[\w./\\-]+\.\w+[:(]\d+(?:[:,]\d+)?\)?:\s",
    re.IGNORECASE,
)
_LOCATED = re.compile(r"^\s*[\w./\\-]+\.\w+[:(]\d+(?:[:,]\d+)?\)?:\s")  # file:12:3: msg
#: A line that only reports that something failed, after the line that says what: make's
#: "*** [target] Error 1", "Build finished with 1 error", "3 errors generated.", "FAILED".
_TALLY = re.compile(
    r"^\W*\*{3}|\bError \d+\s*$|\b\d+\s+(?:errors?|failures?|failed)\b"
    r"|\b(?:tests?|builds?|commands?|scripts?|jobs?|steps?)\s+failed\b"
    r"|^(?:build|compilation|command|task|job)\b.*\b(?:failed|finished|completed)\b"
    r"|^\W*(?:FAILED|ERROR|FAILURE)\W*$",
    re.IGNORECASE,
)
#: A line that says what went wrong: a located diagnostic, a named error and its message
#: ("KeyError: 'x'", "ABC-1234: Thing 7 not found", "Shader error in 'X': …", "error: …").
_SAYS_WHAT = re.compile(
    r"^\s*[\w./\\-]+\.\w+[:(]\d+(?:[:,]\d+)?\)?:\s"
    r"|(?:^|[\s\"'{\[(])(?:[\w.]*(?:Error|Exception)|[A-Z]{2,6}-\d{2,6}"
    r"|(?:fatal\s+)?error(?:\[\w+\])?|fatal|panic)\s?:\s+\S"
    r"|\b[A-Z][\w-]{1,30}\s(?:error|exception|failure)\s(?:in|at|from|on|while)\s[^:]{1,80}:\s"
)


def _error_lines(lines: list[str]) -> list[str]:
    """Error-looking lines, a header ending in ":" joined to the message line after it
    ("thread 'main' panicked at src/x.rs:3:1:" + "byte index 7 is not a char boundary…")."""
    out = []
    for at, line in enumerate(lines):
        if not (_ERROR_LINE.search(line) or _STRONG_ERROR.search(line) or _SAYS_WHAT.search(line)):
            continue
        header = line.endswith(":") and _STRONG_ERROR.search(line) is not None
        if header and at + 1 < len(lines) and not _EXIT_LINE.match(lines[at + 1]):
            line = f"{line} {lines[at + 1]}"
        out.append(line)
    return out


def opens_with_error(line: str) -> bool:
    """Whether ``line`` starts by saying what went wrong (a pasted diagnostic, an API error
    code with its message, a named error), not by tallying a failure."""
    return _SAYS_WHAT.match(line.strip()) is not None and not _TALLY.search(line)


@functools.lru_cache(maxsize=512)  # the ledger and the summarizer's reading both ask
def error_line(text: str) -> str:
    """The line of ``text`` stating the error, verbatim: the last line that names the error
    (a header ending in ":" with its message line) — one that says what went wrong before
    one that only tallies the failure ("*** Error 1", "1 error generated") — led by the first
    one when both are a compiler's ``file:line:col:`` lines (its first error is the cause);
    else the last error-looking line."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return "(no output)"
    lines = [line for line in lines if not _EXIT_LINE.match(line)] or lines
    found = _error_lines(lines)
    strong = [line for line in found if _STRONG_ERROR.search(line)]
    telling = [line for line in found if _SAYS_WHAT.search(line) and not _TALLY.search(line)]
    strong = telling or [line for line in strong if not _TALLY.search(line)] or strong
    if strong:
        first, last = strong[0], strong[-1]
        if first in last or not (_LOCATED.match(first) and _LOCATED.match(last)):
            return last[:MAX_FACT]
        return f"{first} … {last}"[:MAX_FACT]  # a compiler's first error is the cause
    if found:
        return found[-1][:MAX_FACT]
    return lines[-1][:MAX_FACT]


__all__ = ["error_line", "opens_with_error"]
