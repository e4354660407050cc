"""Exact strings inside prose, kept whole as identifier facts: inline code spans, quoted error
lines, error lines written mid-sentence (up to a dash clause or the sentence's end), and
command lines from the program name through their flags and arguments.

Each finder gives ``(start, end)`` spans of one sentence; :func:`exact_spans` joins them. The
identifier shapes inside a span (a flag with its value, a pin) lend it their subject, so a
changed value still retires it (:func:`.identifiers.identifiers`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tether.builtin_plugins.memory.fact_ledger.words import vocabulary

_CODE = re.compile(r"`([^`\n]{3,})`")
_QUOTED = re.compile(
    r"\"([^\"\n]{6,300})\"|“([^”\n]{6,300})”|「([^」\n]{6,300})」|『([^』\n]{6,300})』"
    r"|(?<!\w)'([^'\n]{6,300})'(?!\w)"  # single quotes: not an apostrophe (that's, don't)
)
_ERRORISH = re.compile(
    r"error|exception|traceback|failed|failure|fatal|denied|not found|no such|cannot|can't"
    r"|invalid|refused|timed? ?out|panic|mismatch|unexpected|assert|错误|异常|失败|报错",
    re.IGNORECASE,
)
#: A diagnostic located in a file: ``path/to/file.ext:LINE[:COL]: [fatal ]error|warning …``
#: (also ``file.ext(LINE[,COL]): error …``): the location is part of the error line.
LOCATED = (
    r"(?<![\w./\\-])(?:[\w.~-]+[/\\])*[\w.-]+\.[A-Za-z]\w{0,9}"
    r"(?::\d{1,6}(?::\d{1,4})?|\(\d{1,6}(?:,\d{1,4})?\)):\s*"
    r"(?=(?:fatal\s+)?(?:error|warning)\b|[A-Z]\w*(?:Error|Exception)\b)"
)
#: "Shader error in 'X': …", "Build failure in module foo: …": a kind of error, where, colon.
NAMED_IN = (
    r"(?<![\w'-])[A-Z][\w-]{1,30}\s(?:error|exception|failure|fault)\s(?:in|at|from|on|while)\s"
    r"[^:\n]{1,80}:\s"
)
#: Where an error line starts inside a sentence: a named error with its message after a colon.
_ERROR_START = re.compile(
    r"(?<![\w.])(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Fault|Failure|Warning)(?:\[\w+\])?:\s"
    r"|(?<![\w-])(?:error|fatal|panic|ERROR|FATAL|PANIC|Error|Fatal)(?:\[\w+\])?:\s"
    r"|(?<![\w.])(?:[A-Za-z_]\w*\.)*(?:errors|exceptions|exc)\.[A-Z]\w*:\s"  # errors.X:
    r"|npm ERR!|(?<![\w-])[A-Z]{2,5}-\d{3,5}:\s|Traceback \(most recent call last\)"
    r"|" + LOCATED + r"|" + NAMED_IN
)
#: What ends an error line written mid-sentence: a dash clause (or the sentence's end).
_CLAUSE_DASH = re.compile(r"\s+(?:—|–|--|-)\s+|\s*[—–]{1,2}\s*(?=\S)|[，。；！？]")

#: Program names a command line may start with (data: more names only widen what is found).
PROGRAMS = vocabulary("programs")
#: A program's own error line: its name and a colon ("ssh: connect to host …: refused").
_PROGRAM_SAYS = re.compile(
    r"(?<![\w./-])(?:"
    + "|".join(re.escape(p) for p in sorted(PROGRAMS, key=len, reverse=True))
    + r"):\s"
)
#: Words of prose around a command: a walk back from its flags stops at one.
GLUE = vocabulary("command_glue")
_TOKEN = re.compile(r"[!-~]+")  # a run of printable ASCII: CJK text or a space ends it
_FLAG = re.compile(r"--?[A-Za-z][\w.-]*(?:=\S*)?")
_WORDISH = re.compile(r"[\w./:@=+~${}\[\]%*'\"<>-]+")
_TRAIL = ",;:!?)"
_HAS_FLAG = re.compile(r"(?<!\S)--?[A-Za-z]")
MAX_COMMAND_TOKENS = 24
MAX_BACK = 6


def code_spans(sentence: str) -> list[tuple[int, int]]:
    """Inline code: the text between single backticks."""
    return [m.span(1) for m in _CODE.finditer(sentence) if m.group(1).strip()]


def quoted_errors(sentence: str) -> list[tuple[int, int]]:
    """A quoted string that reads as an error line."""
    out = []
    for match in _QUOTED.finditer(sentence):
        group = next(i for i in range(1, 6) if match.group(i) is not None)
        if _ERRORISH.search(match.group(group)):
            out.append(match.span(group))
    return out


def error_lines(sentence: str, inside: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """An error written in the prose: from its name up to a dash clause or the sentence's end
    (its stop kept: the words are verbatim); one starting ``inside`` a span is that span's."""
    out = []
    for match in _ERROR_START.finditer(sentence):
        if not any(a <= match.start() < b for a, b in inside):
            out.append((match.start(), _error_end(sentence, match.end())))
    for match in _PROGRAM_SAYS.finditer(sentence):  # "curl: (7) Failed to connect to …"
        end = _error_end(sentence, match.end())
        if not any(a <= match.start() < b for a, b in inside) and _ERRORISH.search(
            sentence, match.end(), end
        ):
            out.append((match.start(), end))
    return out


def _error_end(sentence: str, start: int) -> int:
    dash = _CLAUSE_DASH.search(sentence, start)
    return dash.start() if dash else len(sentence.rstrip())


def observed(exact: str) -> bool:
    """An error line: something seen, not a rule or a value, so it is never replaced (a
    command line with flags is not one, even with ``--timeout`` in it)."""
    if _ERROR_START.search(exact) or _PROGRAM_SAYS.match(exact):
        return True
    return " " in exact and not _HAS_FLAG.search(exact) and _ERRORISH.search(exact) is not None


def _strip(token: str) -> str:
    while token and token[-1] in _TRAIL:
        token = token[:-1]
    if token.endswith(".") and not token.endswith(("..", "/.")) and len(token) > 1:
        token = token[:-1]
    return token


def _commandish(token: str) -> bool:
    return bool(_WORDISH.fullmatch(token)) and token.casefold() not in GLUE


def command_lines(sentence: str) -> list[tuple[int, int]]:
    """A command line: the program name (a known one, a path, or a lower-case word right
    before the arguments) through its flags, their values and its arguments."""
    if "-" not in sentence:
        return []
    tokens = [(m.start(), m.end(), m.group(0)) for m in _TOKEN.finditer(sentence)]
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(tokens):
        if not _FLAG.fullmatch(_strip(tokens[i][2])) or (out and tokens[i][0] < out[-1][1]):
            i += 1
            continue
        first = _program(sentence, tokens, i)
        if first is None:
            i += 1
            continue
        last = _last_argument(sentence, tokens, i)
        start, end = tokens[first][0], tokens[last][0] + len(_strip(tokens[last][2]))
        out.append((start, end))
        i = last + 1
    return out


def _joined(sentence: str, tokens: list[tuple[int, int, str]], j: int) -> bool:
    """Token ``j`` and the next are separated by white space only."""
    return not sentence[tokens[j][1] : tokens[j + 1][0]].strip()


def _program(sentence: str, tokens: list[tuple[int, int, str]], flag: int) -> int | None:
    """The index of the program name before the flag at ``flag`` (``None``: no command)."""
    walked: list[int] = []
    j = flag - 1
    while j >= 0 and flag - j <= MAX_BACK and _joined(sentence, tokens, j):
        word = tokens[j][2]
        if word[-1] in _TRAIL or not _WORDISH.fullmatch(word):
            break  # "Run:", "first," — prose before the command
        if word.casefold() in GLUE:  # "npm run build": a glue word right after a program
            if j == 0 or tokens[j - 1][2].casefold() not in PROGRAMS:
                break
        walked.append(j)
        j -= 1
    known = [k for k in walked if _program_name(tokens[k][2])]
    if known:
        first = min(known)
        while first - 1 in walked and "=" in tokens[first - 1][2]:  # VAR=value before it
            first -= 1
        return first
    candidates = [k for k in walked if re.fullmatch(r"(?:\.{0,2}/)?[a-z][\w./-]*", tokens[k][2])]
    return min(candidates) if candidates else None


def _program_name(token: str) -> bool:
    name = token.casefold()
    return name in PROGRAMS or name.rsplit("/", 1)[-1] in PROGRAMS or name.endswith(".sh")


def _last_argument(sentence: str, tokens: list[tuple[int, int, str]], flag: int) -> int:
    """The index of the command's last token from the flag at ``flag`` on."""
    last = flag
    if _strip(tokens[flag][2]) != tokens[flag][2]:
        return flag  # "--dry-run," closes the clause
    k = flag + 1
    while k < len(tokens) and k - flag < MAX_COMMAND_TOKENS and _joined(sentence, tokens, k - 1):
        word = tokens[k][2]
        if not (_FLAG.fullmatch(_strip(word)) or _commandish(_strip(word) or word)):
            break
        last = k
        if _strip(word) != word:
            break
        k += 1
    return last


def exact_spans(sentence: str) -> list[tuple[int, int]]:
    """Every exact string of ``sentence`` as ``(start, end)``, sorted, overlaps joined."""
    spans = []
    if "`" in sentence:
        spans += code_spans(sentence)
    if any(q in sentence for q in "\"“「『'"):
        spans += quoted_errors(sentence)
    if ":" in sentence or "ERR!" in sentence:
        inside = [m.span() for m in _CODE.finditer(sentence)]
        inside += [m.span() for m in _QUOTED.finditer(sentence)]
        spans += error_lines(sentence, inside)
    spans += command_lines(sentence)
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if end - start < 3:
            continue
        if out and start < out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


__all__ = [
    "GLUE",
    "PROGRAMS",
    "code_spans",
    "command_lines",
    "error_lines",
    "exact_spans",
    "observed",
    "quoted_errors",
]
