"""Fast scanners for the offline summarizer: paths, function names, constraint/decision sentences.

A 10k-entry session holds megabytes of text, so nothing here runs a general regex over every
position: substring checks (C speed) decide whether a text is worth a closer look, and paths
and calls are found from their anchors (``/``, a file extension, ``(``) outwards.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_EXTENSIONS = (
    "py|pyi|ts|tsx|js|jsx|mjs|cjs|json|jsonl|md|toml|yaml|yml|rs|go|java|kt|c|h|cc|cpp|hpp|cs"
    "|rb|php|sh|sql|txt|css|scss|html|vue|svelte|lock|cfg|ini"
)
_PATH_ANCHOR = re.compile(r"/|\.(?:" + _EXTENSIONS + r")(?![\w])")
_PATH_FORWARD = re.compile(r"[\w.@+~/-]*")
_PATH_CHARS = frozenset("._@+~/-")
_CALL_CHARS = frozenset("_.")
_DEFINITION = re.compile(
    r"\b(?:def|function|fn|func)\s+([A-Za-z_][A-Za-z0-9_]*)\s*[(<]"
    r"|\b(?:class|interface|struct)\s+([A-Z][A-Za-z0-9_]*)(?![\w])"
)
_DEFINITION_WORDS = ("def ", "function ", "fn ", "func ", "class ", "interface ", "struct ")
_NOT_FUNCTIONS = {
    "if", "for", "while", "switch", "return", "catch", "function", "def", "class", "with",
    "elif", "and", "or", "not", "in", "print", "e.g", "i.e", "see", "typeof", "await", "new",
}  # fmt: skip

_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|\n+")
_CONSTRAINT_WORDS = (
    "must", "never", "always", "don't", "do not", "dont", "doesn't", "shouldn't", "should",
    "prefer", "only", "avoid", "make sure", "ensure", "require", "without", "no more than",
    "target", "keep", "constraint", "stick to", "not ", "no ", "at most", "at least",
)  # fmt: skip
_CONSTRAINT = re.compile(
    r"\b(?:must|never|always|don't|do not|dont|doesn't|shouldn't|should(?: not)?"
    r"|prefer(?:s|red|ably)?|only|avoid|make sure|ensure|require[sd]?|requirement|without"
    r"|no more than|at most|at least|stick to|we(?: are|'re)? target(?:ing)?|constraint:"
    r"|keep (?!going|on\b|it up|up\b)\S+(?: \S+){0,4} (?:in|under|within|below|above|out of|to)\b"
    r"|use \S+(?: \S+){0,3},? not\b|no \w+ (?:statements?|calls?|dependencies|imports?)\b)",
    re.IGNORECASE,
)
_DECISION_WORDS = (
    "decided", "decide to", "instead of", "rather than", "chose", "choose to", "we're going with",
    "go with", "opted", "switch to", "switched to", "i'll use", "we'll use", "will use",
    "decision",
)  # fmt: skip
_DECISION = re.compile(
    r"\b(?:" + "|".join(re.escape(w) for w in _DECISION_WORDS) + r")\b|^decision:", re.I
)
_NEXT_STEP = re.compile(
    r"^(?:next(?: step)?\b[,:]?|then,|after that\b|afterwards\b|todo:|as a next step\b)",
    re.IGNORECASE,
)
_ACCEPT = re.compile(
    r"^(?:yes|yep|yeah|ok(?:ay)?|sure|agreed|sounds good|go ahead|do it|please do|lgtm"
    r"|let's do (?:it|that)|that works)\b",
    re.IGNORECASE,
)
_PROPOSAL = re.compile(
    r"\b(?:i (?:suggest|propose|recommend)|shall i|should i|should we|how about|i could"
    r"|we could|i'd suggest|my suggestion)\b",
    re.IGNORECASE,
)
_FILLER = re.compile(
    r"^(?:continue|go on|keep going|proceed|ok(?:ay)?|thanks?|thank you|yes|no|sure|go ahead)\b",
    re.IGNORECASE,
)


def _is_path_char(ch: str) -> bool:
    return ch.isalnum() or ch in _PATH_CHARS


def _looks_like_path(token: str) -> bool:
    if len(token) < 3 or token.startswith("//") or not any(ch.isalpha() for ch in token):
        return False
    if "/" in token:
        return any(part and not part.isdigit() for part in token.split("/"))
    return True  # found through its file extension


def find_paths(text: str) -> Iterator[str]:
    """File paths (``a/b``, ``./x``, ``~/y``, ``name.ext``) in ``text``, verbatim."""
    if "/" not in text and "." not in text:
        return
    end = 0
    for hit in _PATH_ANCHOR.finditer(text):
        start = hit.start()
        if start < end:
            continue
        while start > 0 and _is_path_char(text[start - 1]):
            start -= 1
        forward = _PATH_FORWARD.match(text, hit.start())
        end = forward.end() if forward else hit.end()
        token = text[start:end].rstrip(".-")
        if _looks_like_path(token):
            yield token


def find_functions(text: str) -> Iterator[str]:
    """Names written as calls (``name(``, ``obj.method(``) or defined (``def``/``class``…)."""
    index = text.find("(")
    while index != -1:
        start = index
        while start > 0 and (
            (text[start - 1].isascii() and text[start - 1].isalnum())
            or text[start - 1] in _CALL_CHARS
        ):
            start -= 1
        name = text[start:index].strip(".")
        before = text[start - 1] if start > 0 else " "
        if (
            name
            and not name[0].isdigit()
            and not before.isalnum()
            and name.lower() not in _NOT_FUNCTIONS
        ):
            yield name
        index = text.find("(", index + 1)
    if any(word in text for word in _DEFINITION_WORDS):
        for match in _DEFINITION.finditer(text):
            yield match.group(1) or match.group(2)


def sentences(text: str) -> list[str]:
    """``text`` split into sentences and lines, stripped."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


def _matching_sentences(
    text: str, words: tuple[str, ...], pattern: re.Pattern[str], max_len: int
) -> list[str]:
    lower = text.lower()
    if not any(word in lower for word in words):
        return []
    return [s for s in sentences(text) if len(s) <= max_len and pattern.search(s)]


def constraint_sentences(text: str, max_len: int) -> list[str]:
    """Sentences stating a rule or preference (must/never/always/don't/prefer/only/keep X in Y…)."""
    return _matching_sentences(text, _CONSTRAINT_WORDS, _CONSTRAINT, max_len)


def decision_sentences(text: str, max_len: int) -> list[str]:
    """Sentences stating a choice (let's go with X rather than Y/we'll use/decided…)."""
    return _matching_sentences(text, _DECISION_WORDS, _DECISION, max_len)


def is_next_step(sentence: str) -> bool:
    """A sentence announcing what comes next ("Next, …", "After that …", "TODO: …")."""
    return bool(_NEXT_STEP.match(sentence.strip()))


def is_acceptance(text: str) -> bool:
    """A short reply that accepts the assistant's proposal ("Yes, go ahead", "Sounds good")."""
    return len(text) <= 200 and bool(_ACCEPT.match(text.strip()))


def is_filler(text: str) -> bool:
    """A request that only keeps the work going ("Continue …", "ok", "thanks")."""
    return len(text) <= 120 and bool(_FILLER.match(text.strip()))


def proposal_sentences(text: str, max_len: int) -> list[str]:
    """Sentences in which the assistant proposes a choice ("I suggest …", "Shall I use …?")."""
    return [s for s in sentences(text) if len(s) <= max_len and _PROPOSAL.search(s)]


__all__ = [
    "constraint_sentences",
    "decision_sentences",
    "find_functions",
    "find_paths",
    "is_acceptance",
    "is_filler",
    "is_next_step",
    "proposal_sentences",
    "sentences",
]
