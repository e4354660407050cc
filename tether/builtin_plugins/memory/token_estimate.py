"""Built-in plugin ``token_estimate``: pi's chars/4 token estimate, the token counter ``chars``
(the built-in default of ``tokens.counter``).

``estimate_tokens(message)`` is ``ceil(chars / 4)`` with pi's rules: lengths in UTF-16 code units
(what JavaScript's ``.length`` counts, so an emoji is 2), images in user messages ignored, 4800
characters per image in tool results and custom messages, tool-call arguments measured as
compact ``JSON.stringify`` output, summaries without their wrapper text.
"""

from __future__ import annotations

import json
import re
from typing import Any

from tether.hookspecs import hookimpl
from tether.tools import js_number

IMAGE_CHARS = 4800
_SURROGATE = re.compile("[\ud800-\udfff]")
_MAYBE_FLOAT = re.compile(r"\d[.eE]|\d{16}")  # a float, or an int too big for a double
_MAX_EXACT_INT = 2**53
_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=True).encode


def js_length(text: str) -> int:
    """``text.length`` in JavaScript: UTF-16 code units (characters above U+FFFF count 2)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) >> 1


def js_json_length(value: Any) -> int:
    """Length (UTF-16 units) of ``JSON.stringify(value)`` for JSON-shaped Python data."""
    text = _dumps(value)
    if text.isascii():
        return len(text) + (_js_json_correction(value) if _MAYBE_FLOAT.search(text) else 0)
    return js_length(text) + _js_json_correction(value)


def _js_json_correction(value: Any) -> int:
    """What JavaScript writes differently: floats, ints beyond 2**53, lone surrogates."""
    if isinstance(value, str):
        return 0 if value.isascii() else 5 * len(_SURROGATE.findall(value))
    if isinstance(value, float):
        return len(js_number(value)) - len(_dumps(value))
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= _MAX_EXACT_INT:
        return len(js_number(value)) - len(str(value))
    if isinstance(value, dict):
        return sum(_js_json_correction(k) + _js_json_correction(v) for k, v in value.items())
    if isinstance(value, list):
        return sum(_js_json_correction(v) for v in value)
    return 0


def _text_length(block: Any) -> int:
    text = block.get("text")
    return js_length(text) if isinstance(text, str) else 0


def _content_chars(content: Any, *, images: bool) -> int:
    if isinstance(content, str):
        return js_length(content)
    chars = 0
    if isinstance(content, list):
        for block in content:
            if not isinstance(block, dict):
                continue
            kind = block.get("type")
            if kind == "text":
                chars += _text_length(block)
            elif images and kind == "image":
                chars += IMAGE_CHARS
    return chars


def _assistant_chars(content: Any) -> int:
    chars = 0
    for block in content if isinstance(content, list) else ():
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text":
            chars += _text_length(block)
        elif kind == "thinking":
            thinking = block.get("thinking")
            chars += js_length(thinking) if isinstance(thinking, str) else 0
        elif kind == "toolCall":
            name = block.get("name")
            chars += js_length(name) if isinstance(name, str) else 0
            chars += js_json_length(block.get("arguments"))
    return chars


def _str_length(value: Any) -> int:
    return js_length(value) if isinstance(value, str) else 0


def estimate_tokens(message: dict[str, Any]) -> int:
    """pi's ``estimateTokens``: ``ceil(chars / 4)`` of one agent message (0 for unknown roles)."""
    role = message.get("role")
    if role == "user":
        chars = _content_chars(message.get("content"), images=False)
    elif role == "assistant":
        chars = _assistant_chars(message.get("content"))
    elif role == "toolResult" or role == "custom":
        chars = _content_chars(message.get("content"), images=True)
    elif role == "bashExecution":
        chars = _str_length(message.get("command")) + _str_length(message.get("output"))
    elif role == "branchSummary" or role == "compactionSummary":
        chars = _str_length(message.get("summary"))
    else:
        return 0
    return (chars + 3) // 4


def count_tokens(messages: list[dict[str, Any]], model: dict[str, Any] | None) -> list[int]:
    """The ``chars`` counter: pi's chars/4 estimate for every message."""
    return [estimate_tokens(m) if isinstance(m, dict) else 0 for m in messages]


@hookimpl
def register_token_counters(register: Any) -> None:
    register("chars", count_tokens)


__all__ = [
    "IMAGE_CHARS",
    "count_tokens",
    "estimate_tokens",
    "js_json_length",
    "js_length",
    "register_token_counters",
]
