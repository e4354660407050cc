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


def _error_lines(lines: list[str]) -> list[str]:
    """Error-looking lines, a header ending in ":" joined to the message line after it
    ("thread 'main' panicked at src/x.rs:3:1:" + "byte index 7 is not a char boundary…")."""
    out = []
    for at, line in enumerate(lines):
        if not (_ERROR_LINE.search(line) or _STRONG_ERROR.search(line)):
            continue
        header = line.endswith(":") and _STRONG_ERROR.search(line) is not None
        if header and at + 1 < len(lines) and not _EXIT_LINE.match(lines[at + 1]):
            line = f"{line} {lines[at + 1]}"
        out.append(line)
    return out


@functools.lru_cache(maxsize=512)  # the ledger and the summarizer's reading both ask
def error_line(text: str) -> str:
    """The line of ``text`` stating the error, verbatim: the last line that names the error
    (a header ending in ":" with its message line), led by the first one when both are a
    compiler's ``file:line:col:`` lines (its first error is the cause); else the last
    error-looking line."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return "(no output)"
    lines = [line for line in lines if not _EXIT_LINE.match(line)] or lines
    found = _error_lines(lines)
    strong = [line for line in found if _STRONG_ERROR.search(line)]
    if strong:
        first, last = strong[0], strong[-1]
        if first in last or not (_LOCATED.match(first) and _LOCATED.match(last)):
            return last[:MAX_FACT]
        return f"{first} … {last}"[:MAX_FACT]  # a compiler's first error is the cause
    if found:
        return found[-1][:MAX_FACT]
    return lines[-1][:MAX_FACT]


__all__ = ["error_line"]
