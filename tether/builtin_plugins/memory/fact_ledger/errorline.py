"""The line of a failing tool's output that states the error, verbatim (:func:`error_line`)."""

from __future__ import annotations

import functools
import re

from tether.builtin_plugins.memory.fact_ledger.cues import Cues
from tether.builtin_plugins.memory.fact_ledger.words import alternation, leads_with, vocabulary

MAX_FACT = 1000  # as :data:`.extract.MAX_FACT`
_EXIT_LINE = re.compile(
    r"^(?:exit status \d+|exit code:? \d+|command exited with code \d+|process exited.*)$",
    re.IGNORECASE,
)
#: A line with a word of failure in it (``error_words`` of ``vocabulary.json``) or a phrase
#: ("fault", but not inside "default").
_ERROR_LINE = re.compile(
    rf"{alternation('error_words')}|not found|no such|not recogni[sz]ed|does not exist"
    r"|timed? ?out|\bfault",
    re.I,
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
#: "*** [target] Error 1", "Build finished with 1 error", "3 errors generated.", "FAILED",
#: "error: aborting due to 1 previous error".
_TALLY = re.compile(
    r"^\W*\*{3}|\bError \d+\s*$|(?<![:.])\b\d+\s+(?:errors?|failures?|failed)\b(?!:\s+\S)"
    r"|\bprevious errors?\b"
    r"|\b(?:tests?|builds?|commands?|scripts?|jobs?|steps?)\s+failed\b"
    r"|^(?:build|compilation|command|task|job)\b.*\b(?:failed|finished|completed)\b"
    r"|^\W*(?:FAILED|ERROR|FAILURE)\W*$"
    r"|\b(?:returned|exited with)\s+\d+\s+exit status\b|\bsubcommand failed\b"  # a wrapper's
    r"|^FAILED:\s+\S+$",  # "collect2: error: ld returned 1 exit status", ninja's "FAILED: x.elf"
    re.IGNORECASE,
)
#: A line that says what went wrong: a located diagnostic, a named error and its message
#: ("KeyError: 'x'", "ABC-1234: Thing 7 not found", a class of an errors module:
#: "psycopg.errors.DeadlockDetected: …", "Shader error in 'X': …", "error: …",
#: "Error (nc_open): …" — a qualifier in parentheses before the colon; a message id — capitals,
#: digits, a severity letter — opening a line that says something failed: "IEF450I … ABEND=S0C7",
#: "DFHAC2206 … failed with abend ASRA"; a numeric code, a state in parentheses, a colon:
#: "002003 (42S02): SQL compilation error: …").
_SAYS_WHAT = re.compile(
    r"^\s*[\w./\\-]+\.\w+[:(]\d+(?:[:,]\d+)?\)?:\s"
    r"|^\W{0,2}[A-Z][A-Z0-9]{1,8}\d{3,5}[A-Z]?\s(?=.*?(?i:" + _ERROR_LINE.pattern + "))"
    r"|^\W{0,2}\d{3,}\s*(?:\([^()\s]{1,12}\))?:\s+(?=.*?(?i:" + _ERROR_LINE.pattern + "))"
    r"|(?:^|[\s\"'{\[(])(?:[\w.]*(?:Error|Exception)|[A-Z]{2,6}-\d{2,6}"
    r"|\w+(?:\.\w+)*\.(?:errors?|exceptions?|exc)\.[A-Z]\w*"
    r"|(?:fatal\s+)?error(?:\[\w+\])?|fatal|panic)(?:\s?\([^()\s]{1,40}\))?\s?:\s+\S"
    r"|\b[A-Z][\w-]{1,30}\s(?:error|exception|failure)\s(?:in|at|from|on|while)\s[^:]{1,80}:\s"
    r"|\bAn?\s(?:[A-Z]+\s)?(?:ERROR|[Ee]rror)\shas\soccurred:\s+\S"  # "A USER ERROR has…"
    r"|\b(?i:test|check|case|step)\s+\d+\s+failed:\s+\S"  # "Test 1 failed: 3 allocations …"
)


#: A header that names an error and where, its message on the next line ("Error using
#: filtfilt", "Error in foo (line 41)"): no colon, nothing said of what went wrong.
_NAMES_ONLY = r"(?:fatal\s+)?(?:error|exception)\b[^:]{0,60}"
#: A line of prose: a capital, words, a full stop ("Data must have length more than 3 …").
_PROSE = r"[A-Z][a-z]+(?:\s+[\w'’,-]+){2,}[.!]"
_HEADER = re.compile(f"^{_NAMES_ONLY}$", re.IGNORECASE)
_MESSAGE = re.compile(f"^{_PROSE}$")
_HEADED = re.compile(f"^(?i:{_NAMES_ONLY}?) {_PROSE}$")  # the two joined


def joined(lines: list[str], at: int) -> str:
    """Line ``at`` of ``lines``, with the message line after it when it is a header: one
    ending in ":" that names an error ("thread 'main' panicked at src/x.rs:3:1:", "002003
    (42S02): SQL compilation error:"), or one naming only the error and where, followed by
    a line of prose ("Error using filtfilt" + "Data must have length …")."""
    line = lines[at]
    if at + 1 >= len(lines) or _EXIT_LINE.match(lines[at + 1]):
        return line
    if line.endswith(":") and _STRONG_ERROR.search(line) is not None:
        return f"{line} {lines[at + 1]}"
    if _HEADER.match(line) and _MESSAGE.match(lines[at + 1]):
        return f"{line} {lines[at + 1]}"
    return line


def _error_lines(lines: list[str], more: re.Pattern[str] | None = None) -> list[str]:
    """Error-looking lines (or of the shape ``more``), a header joined to the message line
    after it (:func:`joined`)."""
    out = []
    for at, line in enumerate(lines):
        if not (_ERROR_LINE.search(line) or _STRONG_ERROR.search(line) or _SAYS_WHAT.search(line)):
            if more is None or not more.search(line):
                continue
        out.append(joined(lines, at))
    return out


def says_what(line: str) -> bool:
    """Whether ``line`` says what went wrong (not only that something failed)."""
    said = _SAYS_WHAT.search(line) is not None or _HEADED.match(line) is not None
    return said and not _TALLY.search(line)


#: A tool's diagnostic: its name, then "error:" ("clang: error: linker command failed",
#: "c++: fatal error: …"), not code that names an error ("catch (error: unknown)").
_DIAGNOSTIC = re.compile(r"^\s*[\w.+/-]+:\s+(?:fatal\s+)?(?:error|panic):\s+\S", re.IGNORECASE)


#: A log record at an error level: "… kiosk-agent[1893]: ERROR escpos: usb write failed".
_LEVELLED = re.compile(r"(?<![\w.'\"])(?:ERROR|FATAL|CRITICAL)(?::|\s+\w+:)\s+\S")


def reports_error(text: str) -> bool:
    """Whether a line of ``text`` is a tool's diagnostic (:data:`_DIAGNOSTIC`) or a record
    logged at an error level (:data:`_LEVELLED`): a pasted log whose error line does not
    open with the error, not a snippet of code."""
    return any(_DIAGNOSTIC.match(line) or _LEVELLED.search(line) for line in text.splitlines())


def opens_with_error(line: str) -> bool:
    """Whether ``line`` starts by saying what went wrong (a pasted diagnostic, an API error
    code with its message, a named error, a header joined to its message), not by tallying
    a failure."""
    line = line.strip()
    said = _SAYS_WHAT.match(line) is not None or _HEADED.match(line) is not None
    return said and not _TALLY.search(line)


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
    telling = [line for line in found if says_what(line)]
    strong = (
        telling
        or [line for line in strong if not _TALLY.search(line)]
        or [line for line in found if not _TALLY.search(line)]  # "region X overflowed by …"
        or strong
    )
    if strong:
        first, last = strong[0], strong[-1]
        if first in last or not (_LOCATED.match(first) and _LOCATED.match(last)):
            return last[:MAX_FACT]
        return f"{first} … {last}"[:MAX_FACT]  # a compiler's first error is the cause
    if found:
        return found[-1][:MAX_FACT]
    return lines[-1][:MAX_FACT]


#: Other shapes of a line that says something failed, beyond :data:`_ERROR_LINE`: an abort,
#: an undefined name, a missing dependency, a non-zero exit or status, a kill by a signal;
#: where in the code it failed ("… at lib/X.pm line 12"), a value against the one expected
#: ("a != b", "(expected 0x1F)", "got 3, want 4"), an HTTP error status ("HTTP/1.1 503"),
#: a failure or fault tagged in capitals ("CHECK FAIL:",
#: "[BusFault]", "FATAL"), a faulting module or application ("Faulting module name: x.dll").
_MORE_SHAPES = re.compile(
    r"(?i:abort|undefined|nothing provides|unresolved|unsatisfied|segmentation fault"
    r"|core dumped|\bkilled\b|\bexit(?:ed)?\b.{0,40}\b(?:code|status)\s*:?\s*[1-9]"
    r"|\bstatus\s*:?\s*[1-9]|\bat \S+ line \d+|\bexpected\b|\bgot\b.{0,60}\bwant\b"
    r"|\bHTTP\S*\s+[45]\d\d\b)"
    r"|\S\s*!=\s*\S|\b(?:FAIL|FATAL|FAULT|ERR)\b|[a-z]Fault\b|(?i:\bfault(?:ing|ed)\b)"
    r"|(?i:\bcannot find -l\w|\bno such file or directory\b)",  # a linker's missing library
)
#: Lines of a short failing output that tell what went wrong without an error word: "Caused
#: by: Process exceeded running time limit (4h)", "… contains an unknown field: x".
_SHORT_SHAPES = re.compile(
    r"^caused by\b|\bexceeded\b|\bunsupported\b|\bincompatible\b|\bout of memory\b"
    r"|\bunknown (?:field|option|argument|key|flag|column|parameter|property|command)\b",
    re.IGNORECASE,
)
#: A line that only introduces others: "Traceback (most recent call last):", "Error:".
_ONLY_HEADER = re.compile(r"^(?:Traceback \(most recent call last\)|\W*\w+)\s*:$")
_CASE_FAILED = re.compile(r"\S\s+FAILED\b")  # "SomeTest > someCase FAILED"
MAX_LINES = 3  # error lines kept of one failing output


def _named(line: str) -> bool:
    """A line that names a failure: says what went wrong, a failed test case, an abort, a
    missing dependency, an undefined name, a non-zero exit — not one with only a word such
    as "error" or "failed" in its prose (it may well repeat an input's value)."""
    return bool(_SAYS_WHAT.search(line) or _MORE_SHAPES.search(line) or _CASE_FAILED.search(line))


def _rank(line: str) -> int:
    """0: says what went wrong; 1: names an error; 2: another failure shape."""
    return 0 if _SAYS_WHAT.search(line) else 1 if _STRONG_ERROR.search(line) else 2


#: What a short output's excerpt leaves out: a line that only tallies the failure, only
#: introduces others ("Traceback (most recent call last):") or marks a section ("--- stderr").
_NO_EXCERPT = re.compile(
    f"{_TALLY.pattern}|{_ONLY_HEADER.pattern}|^[^\\w\\s]{{2,}}\\s*\\w+\\W*$", re.I
)
_SEPARATOR = re.compile(r"(?:^|(?<=\s))[|:;=<>]+(?=\s|$)")  # standing free: not "1:1.2"
MIN_SKELETON = 3  # separators two lines share to be records of one form
_DIGIT = re.compile(r"\d")
_PASSED = re.compile(r"\b(?:ok|pass|passed|success|succeeded|green)\b|[✓✔]|通过|成功", re.I)
SHORT_LINES = 8  # a failing output of at most this many lines …
SHORT_CHARS = 1000  # … and characters is read as a whole (:func:`_excerpt`)


def _skeleton(line: str) -> str:
    """The free-standing separators of ``line`` in order: ``||||`` of a table row, ``:::<>``
    of a "DIFFER : … : … : 12.4 <> 12.5" record."""
    return "".join(_SEPARATOR.findall(line))


def _excerpt(first: str, lines: list[str]) -> tuple[str, ...]:
    """The error lines of a short output: ``first``, then in output order every line with a
    sign of failure, the line a kept header ending in ":" introduces, every record of the
    form of a kept one (a findings table's other rows, a second mismatch record) and the
    frame where the error was raised (:func:`_innermost`)."""
    kept: list[str] = []
    for at, line in enumerate(lines):
        if _NO_EXCERPT.search(line):
            continue
        introduced = at > 0 and lines[at - 1].endswith(":") and lines[at - 1] in kept
        shaped = _SHORT_SHAPES.search(line) is not None
        if introduced or shaped or _error_lines([line], _MORE_SHAPES) or line in first:
            kept.append(line)
    forms = {_skeleton(line) for line in kept} - {""}
    kept += [
        line
        for line in lines
        if line not in kept
        and len(_skeleton(line)) >= MIN_SKELETON
        and _skeleton(line) in forms
        and _DIGIT.search(line)  # a record, not a table's header
        and not _PASSED.search(line)  # "| lint | ok |": a check that passed
    ]
    where = _innermost(lines)
    if where and not any(where in line for line in kept):
        kept.append(where)
    order = {line: at for at, line in enumerate(lines)}
    return (first, *(line for line in sorted(kept, key=order.__getitem__) if line not in first))


@functools.lru_cache(maxsize=512)
def failure_lines(text: str, limit: int = MAX_LINES) -> tuple[str, ...]:
    """The error lines of ``text``, verbatim, :func:`error_line` first.

    Of a short output (:data:`SHORT_LINES`, :data:`SHORT_CHARS`), every line that tells of
    the failure (:func:`_excerpt`): every row of a findings table, both of two mismatch
    records, a linker's missing symbol under its header. Of a longer one, up to
    ``limit`` lines: other lines that name a failure (:func:`_named`: "Foo > bar FAILED",
    "MPI_ABORT was invoked …", "nothing provides libx", "'name' is undefined") — those that
    say what went wrong first, each in output order — and the output's last line when it
    looks like an error (a cause that names no error type). A line that only tallies the
    failure ("1 error", "*** Error 1", "BUILD FAILED") is never an extra one there."""
    first = error_line(text)
    out = [first]
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    lines = [line for line in lines if not _EXIT_LINE.match(line)]
    if len(lines) <= SHORT_LINES and sum(map(len, lines)) <= SHORT_CHARS:
        kept, root = _excerpt(first, lines), _root_cause(text)
        return kept if not root or any(root in line for line in kept) else (*kept, root)
    found = _error_lines(lines, _MORE_SHAPES)
    extra = [
        line[:MAX_FACT]
        for line in found
        if _named(line) and not (_TALLY.search(line) or _ONLY_HEADER.match(line))
    ]
    root = _root_cause(text)
    if root:
        extra.insert(0, root[:MAX_FACT])  # "   > Android Gradle plugin requires Java 17 …"
    last = lines[-1][:MAX_FACT] if lines else ""
    if _ERROR_LINE.search(last) and not (_TALLY.search(last) or _ONLY_HEADER.match(last)):
        extra.append(last)  # the output's last word on it: "  aarch64-linux-musl-gcc: not found"
    order = {line: at for at, line in reversed(list(enumerate(extra)))}  # first place
    for line in sorted(order, key=lambda line: (line != root and _rank(line), order[line])):
        if len(out) >= limit:
            break
        if not any(line in kept or kept in line for kept in out):
            out.append(line)
    where = _innermost(lines)
    if where and len(out) < limit and not any(where in kept for kept in out):
        out.append(where[:MAX_FACT])
    return tuple(out)


#: A cause nested under the failure that wraps it: Gradle's "   > …" under "> …", Java's
#: "Caused by: …" — the deepest (the last of the deepest) is the root cause.
_NESTED = re.compile(r"^([ \t]*)>[ \t]+([A-Za-z].*)$")  # "   > Android …", no "> 12 | code"
_CAUSED = re.compile(r"^([ \t]*)Caused by:")
_FAILS = re.compile(r"(?i:fail|error|exception|could not|cannot|can't|unable)")


def _root_cause(text: str) -> str:
    """The innermost cause a failing output nests under another (stripped), or "": the last
    "Caused by:" of a Java chain (not one inside a "Suppressed:" block), or the deepest
    "   > …" line nested right under a "> …" line that says something failed (Gradle)."""
    lines = text.splitlines()
    caused = [(len(m.group(1)), line.strip()) for line in lines if (m := _CAUSED.match(line))]
    if caused:
        top = min(depth for depth, _ in caused)
        return [line for depth, line in caused if depth == top][-1]
    best, chain = "", -1  # the deepest nested line, and the depth of the chain it ends
    parent: tuple[int, str] | None = None
    for line in lines:
        found = _NESTED.match(line)
        if found is None:
            if line.strip() and not line.startswith((" ", "\t")):
                parent = None  # the chain ends where unindented prose starts
            continue
        depth = len(found.group(1))
        if parent is not None and depth > parent[0] and _FAILS.search(parent[1]):
            if depth >= chain:
                best, chain = line.strip(), depth
        if parent is None or depth <= parent[0] or _FAILS.search(line):
            parent = (depth, line)
    return best


#: A frame of a stack trace that says where in the code: "(at Assets/World/Chunk.cs:88)",
#: "at com.acme.Foo.bar(Foo.java:42)", a Python frame "File "src/app.py", line 42, in f".
_PY_FRAME = re.compile(r'^File "[^"]+", line \d+')
_FRAME = re.compile(r"[\w.-]+(?:/[\w.-]+)*\.[A-Za-z]{1,5}:\d+\b")


def _innermost(lines: list[str]) -> str:
    """The frame line of a failing output where the error was raised: a Python traceback's
    last ``File "…", line N``, else the first line naming ``file.ext:line`` ("" if none)."""
    python = [line for line in lines if _PY_FRAME.match(line)]
    if python:
        return python[-1]
    return next((line for line in lines if _FRAME.search(line) and not _LOCATED.match(line)), "")


_SYMPTOMS = vocabulary("symptom_words")
_NEXT_WORD = re.compile(r"\W*(?:(?:the|any|more|of)\s+)*([^\W\d_]+|\d\w*)", re.IGNORECASE)


def symptom_gone(text: str, cues: Cues) -> bool:
    """Whether the take-back cue of ``text`` reports a problem gone, not a rule ended: a
    symptom right after it ("No more timeouts since the pool bump", "no longer failing",
    "不再报错了")."""
    span = cues.find("revoke", text)
    if span is None:
        return False
    return leads_with(text[span[1] :], _SYMPTOMS, _NEXT_WORD)


#: A line that opens as an error report: a named error, ``error:``, a failed test, a panic.
ERROR_SHAPE = re.compile(
    r"^\s*(?:[\w.]*(?:Error|Exception|Warning)\b:?|error(?:\[\w+\])?:|E\s{2,}|FAILED\b|fatal:"
    r"|panic:|Traceback \(most recent call last\)|npm ERR!|\w+: command not found)",
)

__all__ = [
    "ERROR_SHAPE",
    "MAX_LINES",
    "SHORT_CHARS",
    "SHORT_LINES",
    "error_line",
    "failure_lines",
    "joined",
    "opens_with_error",
    "reports_error",
    "says_what",
    "symptom_gone",
]
