"""Conversation → plain text for summarizers (pi's ``serializeConversation`` format).

Input: LLM messages (after ``convert_to_llm``). Output: parts joined by a blank line —
``[User]: …``, ``[Assistant thinking]: …``, ``[Assistant]: …``, ``[Assistant tool calls]: …``
and ``[Tool result]: …``. The text equals pi's, except for long tool results:
pi keeps only the first 2000 characters, tether keeps the head *and* the tail (errors live at
the end) with a marker saying how many characters were left out between them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from tether.builtin_plugins.storage.format.fastjson import dumps_or_none
from tether.memory import content_text, js_stringify
from tether.tools import js_len, js_number, js_slice

_quote = json.encoder.encode_basestring  # type: ignore[attr-defined]  # JSON.stringify of an ASCII string

TOOL_RESULT_MAX_CHARS = 2000
"""Longest tool result (UTF-16 units) serialized whole, as in pi."""

TAIL_SHARE = 4
"""A cut tool result keeps 1/TAIL_SHARE of the budget from its end, the rest from its start."""


def js_text(value: Any) -> str:
    """``String(value)`` as a JS ``join`` writes it (``null``/absent: empty) — a malformed
    stored block whose text is not a string must not stop a compaction."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return js_number(value)
    if isinstance(value, list):
        return ",".join(js_text(item) for item in value)
    return "[object Object]"


def _text_of(content: Any) -> str:
    """:func:`content_text` of ``content``, its texts as JS's ``join`` writes them."""
    if content.__class__ is not list:
        return content_text(content, "", _js_text_or_empty)
    texts = []
    for block in content:
        if isinstance(block, dict) and block.get("type") == "text":
            text = block.get("text")
            texts.append(text if text.__class__ is str else js_text(text or ""))
    return "".join(texts)


def _js_text_or_empty(value: Any) -> str:
    return js_text(value or "")


def truncate_head(text: str, max_chars: int = TOOL_RESULT_MAX_CHARS) -> str:
    """pi's cut: the first ``max_chars`` units, then ``[... N more characters truncated]``."""
    if len(text) <= max_chars >> 1 or (len(text) <= max_chars and text.isascii()):
        return text  # short enough whatever it holds: a character is at most two units
    length = js_len(text)
    if length <= max_chars:
        return text
    return f"{js_slice(text, 0, max_chars)}\n\n[... {length - max_chars} more characters truncated]"


def _is_high_surrogate(unit_text: str) -> bool:
    return bool(unit_text) and "\ud800" <= unit_text[-1] <= "\udbff"


def truncate_head_tail(text: str, max_chars: int = TOOL_RESULT_MAX_CHARS) -> str:
    """tether's cut: head and tail kept, the middle replaced by a marker.

    The kept head and tail together are ``max_chars`` units; a surrogate pair is never split.
    """
    if len(text) <= max_chars >> 1 or (len(text) <= max_chars and text.isascii()):
        return text  # short enough whatever it holds: a character is at most two units
    length = js_len(text)
    if length <= max_chars:
        return text
    tail_len = max_chars // TAIL_SHARE
    head_len = max_chars - tail_len
    head = js_slice(text, 0, head_len)
    if _is_high_surrogate(head):
        head = head[:-1]
        head_len -= 1
    tail_start = length - tail_len
    tail = js_slice(text, tail_start)
    if tail and "\udc00" <= tail[0] <= "\udfff":
        tail = tail[1:]
        tail_start += 1
    omitted = tail_start - head_len
    return f"{head}\n\n[... {omitted} characters omitted ...]\n\n{tail}"


def _argument_json(value: Any) -> str:
    """``JSON.stringify(value)`` of a tool-call argument: orjson's text when it is JS's
    (:func:`~tether.builtin_plugins.storage.format.fastjson.dumps_or_none`), else
    :func:`js_stringify`."""
    if value.__class__ is str:
        return _quote(value) if value.isascii() else js_stringify(value)
    fast = dumps_or_none(value)
    return js_stringify(value) if fast is None else fast.decode("utf-8")


def _tool_call_text(block: dict[str, Any]) -> str:
    args = block.get("arguments")
    if args.__class__ is dict or isinstance(args, dict):
        rendered = ", ".join(
            [
                f"{k}={_quote(v) if v.__class__ is str and v.isascii() else _argument_json(v)}"
                for k, v in args.items()
            ]
        )
    else:
        rendered = ""
    return f"{block.get('name', '')}({rendered})"


def _assistant_parts(message: dict[str, Any], parts: list[str]) -> None:
    """The assistant message's parts (thinking, text, tool calls), appended to ``parts``."""
    content = message.get("content")
    if not isinstance(content, list):
        return
    texts: list[str] = []
    thinking: list[str] = []
    calls: list[str] = []
    for block in content:
        kind = block.get("type") if block.__class__ is dict or isinstance(block, dict) else None
        if kind == "text":
            text = block.get("text")
            texts.append(text if text.__class__ is str else js_text(text or ""))
        elif kind == "thinking":
            text = block.get("thinking")
            thinking.append(text if text.__class__ is str else js_text(text or ""))
        elif kind == "toolCall":
            calls.append(_tool_call_text(block))
    if thinking:
        parts.append("[Assistant thinking]: " + "\n".join(thinking))
    if texts:
        parts.append("[Assistant]: " + "\n".join(texts))
    if calls:
        parts.append("[Assistant tool calls]: " + "; ".join(calls))


def _single_text(content: Any) -> str | None:
    """The text of ``content`` when it is one text block (the common case), else ``None``."""
    if content.__class__ is list and len(content) == 1:
        block = content[0]
        if block.__class__ is dict and block.get("type") == "text":
            text = block.get("text")
            return text if text.__class__ is str else js_text(text or "")
    return None


def serialize_conversation(
    messages: Iterable[dict[str, Any]],
    *,
    max_tool_result_chars: int = TOOL_RESULT_MAX_CHARS,
    keep_tail: bool = True,
) -> str:
    """Serialize LLM messages for a summarizer.

    ``keep_tail=False`` reproduces pi exactly (head-only cut of long tool results).
    """
    return "\n\n".join(
        serialized_parts(messages, max_tool_result_chars=max_tool_result_chars, keep_tail=keep_tail)
    )


def serialized_parts(
    messages: Iterable[dict[str, Any]],
    *,
    max_tool_result_chars: int = TOOL_RESULT_MAX_CHARS,
    keep_tail: bool = True,
) -> list[str]:
    """The parts :func:`serialize_conversation` joins with a blank line, in order."""
    cut = truncate_head_tail if keep_tail else truncate_head
    parts: list[str] = []
    append = parts.append
    for message in messages:
        role = message.get("role")
        if role == "assistant":
            text = _single_text(message.get("content"))
            if text is None:
                _assistant_parts(message, parts)
            else:
                append("[Assistant]: " + text)
        elif role == "toolResult":
            content = message.get("content")
            text = _single_text(content)
            if text is None:
                text = _text_of(content if isinstance(content, list) else [])
            if text:
                append("[Tool result]: " + cut(text, max_tool_result_chars))
        elif role == "user":
            content = message.get("content")
            text = _single_text(content)
            if text is None:
                text = _text_of(content)
            if text:
                append("[User]: " + text)
    return parts


def serialize_messages(messages: Iterable[dict[str, Any]], *, keep_tail: bool = True) -> str:
    """Agent messages → summarizer text: ``convert_to_llm`` then :func:`serialize_conversation`."""
    from tether import convert_to_llm

    return serialize_conversation(convert_to_llm(list(messages)), keep_tail=keep_tail)


__all__ = [
    "TOOL_RESULT_MAX_CHARS",
    "serialize_conversation",
    "serialize_messages",
    "serialized_parts",
    "truncate_head",
    "truncate_head_tail",
]
