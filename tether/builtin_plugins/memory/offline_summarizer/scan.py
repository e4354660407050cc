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
    "must", "never", "always", "don't", "do not", "dont", "doesn't", "shouldn't", "should not",
    "prefer", "only", "avoid", "make sure", "ensure", "require", "without", "no more than",
)  # fmt: skip
_CONSTRAINT = re.compile(
    r"\b(?:must|never|always|don't|do not|dont|doesn't|shouldn't|should not|prefer(?:s|red|ably)?"
    r"|only|avoid|make sure|ensure|require[sd]?|without|no more than)\b",
    re.IGNORECASE,
)
_DECISION_WORDS = (
    "decided", "decide to", "instead of", "rather than", "chose", "choose to", "going with",
    "opted", "switch to", "switched to", "i'll use", "we'll use", "will use", "because",
)  # fmt: skip
_DECISION = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in _DECISION_WORDS) + r")\b", re.I)


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


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


def _matching_sentences(
    text: str, words: tuple[str, ...], pattern: re.Pattern[str], max_len: int
) -> list[str]:
    lower = text.lower()
    if not any(word in lower for word in words):
        return []
    return [s for s in _sentences(text) if len(s) <= max_len and pattern.search(s)]


def constraint_sentences(text: str, max_len: int) -> list[str]:
    """Sentences stating a rule or preference (must/never/always/don't/prefer/only…)."""
    return _matching_sentences(text, _CONSTRAINT_WORDS, _CONSTRAINT, max_len)


def decision_sentences(text: str, max_len: int) -> list[str]:
    """Sentences stating a choice (decided/instead of/because/I'll use…)."""
    return _matching_sentences(text, _DECISION_WORDS, _DECISION, max_len)


__all__ = ["constraint_sentences", "decision_sentences", "find_functions", "find_paths"]
