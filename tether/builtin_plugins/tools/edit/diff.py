"""Exact-text replacement and the numbered diff of the edit tool (pi's semantics).

Every edit is matched against the original text (not after earlier edits); when an exact match
fails, a tolerant match ignores trailing spaces, typographic quotes, dashes and exotic spaces.
Errors name the file and, for several edits, the edit's index.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass

from tether.tools import ToolError

_SINGLE_QUOTES = re.compile("[\u2018\u2019\u201a\u201b]")
_DOUBLE_QUOTES = re.compile("[\u201c\u201d\u201e\u201f]")
_DASHES = re.compile("[\u2010-\u2015\u2212]")
_SPACES = re.compile("[\u00a0\u2002-\u200a\u202f\u205f\u3000]")


def detect_line_ending(text: str) -> str:
    """``"\\r\\n"`` if the first line break is CRLF, else ``"\\n"``."""
    lf = text.find("\n")
    crlf = text.find("\r\n")
    return "\r\n" if lf != -1 and crlf != -1 and crlf < lf else "\n"


def normalize_to_lf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def normalize_loosely(text: str) -> str:
    """The tolerant form used when an exact match fails."""
    text = unicodedata.normalize("NFKC", text)
    text = "\n".join(line.rstrip() for line in text.split("\n"))
    text = _SINGLE_QUOTES.sub("'", text)
    text = _DOUBLE_QUOTES.sub('"', text)
    text = _DASHES.sub("-", text)
    return _SPACES.sub(" ", text)


@dataclass
class _Match:
    index: int
    start: int
    length: int
    new_text: str


def _where(index: int, total: int) -> str:
    return "the text" if total == 1 else f"edits[{index}]"


def apply_edits(content: str, edits: list[tuple[str, str]], path: str) -> tuple[str, str]:
    """Apply ``(old, new)`` pairs to LF text; return (base, new) — base is the text the edits
    were matched in (the loosely normalized text when a tolerant match was needed)."""
    edits = [(normalize_to_lf(old), normalize_to_lf(new)) for old, new in edits]
    total = len(edits)
    for i, (old, _) in enumerate(edits):
        if not old:
            target = "oldText" if total == 1 else f"edits[{i}].oldText"
            raise ToolError(f"{target} must not be empty in {path}.")
    loose = any(old not in content for old, _ in edits)
    base = normalize_loosely(content) if loose else content
    matches: list[_Match] = []
    for i, (old, new) in enumerate(edits):
        needle = old if old in base else normalize_loosely(old)
        start = base.find(needle)
        if start == -1:
            if total == 1:
                raise ToolError(
                    f"Could not find the exact text in {path}. The old text must match exactly "
                    "including all whitespace and newlines."
                )
            raise ToolError(
                f"Could not find edits[{i}] in {path}. The oldText must match exactly including "
                "all whitespace and newlines."
            )
        count = normalize_loosely(base).count(normalize_loosely(old))
        if count > 1:
            unique = "The text must be unique" if total == 1 else "Each oldText must be unique"
            raise ToolError(
                f"Found {count} occurrences of {_where(i, total)} in {path}. {unique}. "
                "Please provide more context to make it unique."
            )
        matches.append(_Match(i, start, len(needle), new))
    matches.sort(key=lambda m: m.start)
    for prev, cur in zip(matches, matches[1:], strict=False):
        if prev.start + prev.length > cur.start:
            raise ToolError(
                f"edits[{prev.index}] and edits[{cur.index}] overlap in {path}. Merge them into "
                "one edit or target disjoint regions."
            )
    result = base
    for m in reversed(matches):
        result = result[: m.start] + m.new_text + result[m.start + m.length :]
    if result == base:
        if total == 1:
            raise ToolError(
                f"No changes made to {path}. The replacement produced identical content. This "
                "might indicate an issue with special characters or the text not existing as "
                "expected."
            )
        raise ToolError(f"No changes made to {path}. The replacements produced identical content.")
    return base, result


def _lines(text: str) -> list[str]:
    lines = text.split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def numbered_diff(old: str, new: str, context: int = 4) -> tuple[str, int | None]:
    """A diff with line numbers (``+N``/``-N``/`` N``, ``...`` for skipped lines) and the
    first changed line of the new text."""
    a, b = _lines(old), _lines(new)
    width = len(str(max(len(old.split("\n")), len(new.split("\n")))))
    parts: list[tuple[str, list[str]]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            parts.append(("=", a[i1:i2]))
            continue
        if i2 > i1:
            parts.append(("-", a[i1:i2]))
        if j2 > j1:
            parts.append(("+", b[j1:j2]))
    out: list[str] = []
    old_no = new_no = 1
    first_changed: int | None = None
    pad = " " * width

    def show(lines: list[str]) -> None:
        nonlocal old_no, new_no
        for line in lines:
            out.append(f" {str(old_no).rjust(width)} {line}")
            old_no += 1
            new_no += 1

    def skip(count: int) -> None:
        nonlocal old_no, new_no
        if count > 0:
            out.append(f" {pad} ...")
            old_no += count
            new_no += count

    for k, (kind, lines) in enumerate(parts):
        if kind != "=":  # added lines carry new-file numbers, removed ones old-file numbers
            first_changed = new_no if first_changed is None else first_changed
            start = new_no if kind == "+" else old_no
            out.extend(f"{kind}{str(n).rjust(width)} {line}" for n, line in enumerate(lines, start))
            if kind == "+":
                new_no += len(lines)
            else:
                old_no += len(lines)
            continue
        before = k > 0
        after = k < len(parts) - 1
        if before and after:
            if len(lines) <= context * 2:
                show(lines)
            else:
                show(lines[:context])
                skip(len(lines) - 2 * context)
                show(lines[-context:])
        elif before:
            show(lines[:context])
            skip(len(lines) - context)
        elif after:
            skip(max(0, len(lines) - context))
            show(lines[max(0, len(lines) - context) :])
        else:
            old_no += len(lines)
            new_no += len(lines)
    return "\n".join(out), first_changed


__all__ = ["apply_edits", "detect_line_ending", "normalize_to_lf", "numbered_diff"]
