"""Fast scanners for the offline summarizer: paths and function names (what the user stated
is read by the fact ledger, :mod:`tether.builtin_plugins.memory.fact_ledger`).

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


__all__ = ["find_functions", "find_paths"]
