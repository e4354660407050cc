"""Lone surrogates: valid in JSON (pi writes them when it cuts UTF-16 text), not in UTF-8.

A session may hold ``"\\ud83d"``; Python reads it as a lone surrogate code point that UTF-8
cannot encode. The stored bytes stay as they are; whatever a provider *sends* is made
encodable (what tether prints: the kernel's ``tether.core.context.text_safety``):

- :func:`clean_text` — a split pair becomes its character, a lone surrogate U+FFFD;
- :func:`encode_json_body` — a provider request body as UTF-8 JSON, cleaned the same way;
- :func:`dumps_clean` — JSON carried inside a string of a request, cleaned.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

REPLACEMENT = "\ufffd"


@functools.cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A surrogate; a pair or a lone one (compiled on first use, not at every start)."""
    return re.compile("[\ud800-\udfff]"), re.compile(
        "[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]"
    )


def _fix(match: re.Match[str]) -> str:
    text = match.group(0)
    if len(text) == 2:  # a pair split across two JSON strings and joined again: one character
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    return REPLACEMENT


def clean_text(text: str) -> str:
    """``text`` encodable as UTF-8: pairs joined, lone surrogates → U+FFFD (same object if
    there is nothing to do)."""
    surrogate, pair_or_lone = _patterns()
    if surrogate.search(text) is None:
        return text
    return pair_or_lone.sub(_fix, text)


def encode_json_body(body: Any) -> bytes:
    """``body`` as compact UTF-8 JSON (what httpx's ``json=`` sends), lone surrogates → U+FFFD."""
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return clean_text(text).encode("utf-8")


def clean_value(value: Any) -> Any:
    """A JSON value with :func:`clean_text` applied to every string (keys included)."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, dict):
        return {
            clean_text(str(k)) if isinstance(k, str) else k: clean_value(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [clean_value(item) for item in value]
    return value


def dumps_clean(value: Any) -> str:
    """``json.dumps(value)`` (ASCII, escapes) without lone surrogates: for JSON carried inside a
    string of a request, such as tool-call arguments."""
    text = json.dumps(value)
    if "\\ud" in text or "\\uD" in text:  # maybe a surrogate escape: redo from clean values
        text = json.dumps(clean_value(value))
    return text


__all__ = [
    "REPLACEMENT",
    "clean_text",
    "clean_value",
    "dumps_clean",
    "encode_json_body",
]
