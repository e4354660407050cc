"""pi's session format v3: records as plain dicts, written exactly as pi's ``JSON.stringify``.

Hot paths work on plain dicts. This module gives:

- :func:`dumps_record` — one record as JS ``JSON.stringify`` writes it (byte-identical lines);
- entry constructors (``make_*``, from :mod:`tether.core.storage.records`, lazily) producing
  dicts in pi's key order, unset optionals omitted, ``parentId: null`` kept.

The pydantic models of the format (header, the nine entry types, messages, content blocks) live
in :mod:`tether.builtin_plugins.storage.format.schema` and are importable from here lazily (``from
tether.builtin_plugins.storage.format.stringify import SessionHeader``), so that importing this
module stays cheap.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from json.encoder import encode_basestring  # type: ignore[attr-defined]
from typing import Any, Final

from tether.builtin_plugins.storage.format import fastjson
from tether.builtin_plugins.storage.format.fastjson import js_number

ENTRY_TYPES: Final = (
    "message",
    "thinking_level_change",
    "model_change",
    "compaction",
    "branch_summary",
    "custom",
    "custom_message",
    "label",
    "session_info",
)
THINKING_LEVELS: Final = ("off", "minimal", "low", "medium", "high", "xhigh")

# --------------------------------------------------------------------------------------------
# JSON.stringify
# --------------------------------------------------------------------------------------------

_SURROGATES = re.compile("[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]")


def _is_index_key(key: str) -> bool:
    # JS: ASCII digits only ("١٢", "²" are ordinary keys; int() would read one, refuse the other)
    return (
        key.isascii() and key.isdigit() and (key == "0" or key[0] != "0") and int(key) < 4294967295
    )


def _ordered_keys(obj: Mapping[Any, Any]) -> list[tuple[str, Any]]:
    items = [(k if isinstance(k, str) else _key_text(k), v) for k, v in obj.items()]
    if not any(k[:1].isdigit() for k, _ in items):
        return items
    index = sorted((it for it in items if _is_index_key(it[0])), key=lambda it: int(it[0]))
    return index + [it for it in items if not _is_index_key(it[0])]


def _key_text(key: Any) -> str:
    if isinstance(key, bool) or key is None:
        return "true" if key is True else "false" if key is False else "null"
    if isinstance(key, (int, float)):
        return js_number(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


def _encode(obj: Any, out: list[str]) -> None:
    kind = type(obj)
    if kind is str:
        out.append(encode_basestring(obj))
    elif kind is dict or isinstance(obj, Mapping):
        first = True
        out.append("{")
        for key, value in _ordered_keys(obj):
            if not first:
                out.append(",")
            first = False
            out.append(encode_basestring(key))
            out.append(":")
            _encode(value, out)
        out.append("}")
    elif kind is list or kind is tuple:
        out.append("[")
        for i, value in enumerate(obj):
            if i:
                out.append(",")
            _encode(value, out)
        out.append("]")
    elif obj is None:
        out.append("null")
    elif obj is True:
        out.append("true")
    elif obj is False:
        out.append("false")
    elif isinstance(obj, (int, float)):
        out.append(js_number(obj))
    elif isinstance(obj, str):
        out.append(encode_basestring(str(obj)))
    elif isinstance(obj, (list, tuple)):
        _encode(list(obj), out)
    else:
        raise TypeError(f"cannot serialize {type(obj).__name__} in a session record")


def _escape_surrogates(match: re.Match[str]) -> str:
    text = match.group(0)
    if len(text) == 2:  # a split pair is one character to JS
        return (text.encode("utf-16-le", "surrogatepass")).decode("utf-16-le")
    return f"\\u{ord(text):04x}"


def dumps_record(obj: Any) -> str:
    """``JSON.stringify(obj)``: compact, raw non-ASCII, key order kept, JS number formatting.

    Array-index keys (``"0"``, ``"12"``) come first in ascending order as in a JS object; a lone
    surrogate is escaped (``\\udc00``) as JS does. No trailing newline.
    """
    fast = fastjson.dumps_or_none(obj)
    return dumps_record_std(obj) if fast is None else fast.decode("utf-8")


def dumps_bytes(obj: Any) -> bytes:
    """:func:`dumps_record` as UTF-8 bytes (orjson's when they are the same, see
    :mod:`~tether.builtin_plugins.storage.format.fastjson`)."""
    fast = fastjson.dumps_or_none(obj)
    return dumps_record_std(obj).encode("utf-8") if fast is None else fast


def dumps_record_std(obj: Any) -> str:
    """:func:`dumps_record` by the standard library alone (the reference for orjson's path)."""
    out: list[str] = []
    _encode(obj, out)
    text = "".join(out)
    if _SURROGATES.search(text) is not None:
        text = _SURROGATES.sub(_escape_surrogates, text)
    return text


def dumps_line(obj: Any) -> bytes:
    """One JSONL line (UTF-8, ending in ``\\n``) for ``obj``."""
    return dumps_bytes(obj) + b"\n"


_MODEL_NAMES = frozenset(
    {
        "SessionHeader",
        "TextContent",
        "ThinkingContent",
        "ImageContent",
        "ToolCall",
        "Usage",
        "UsageCost",
        "UserMessage",
        "AssistantMessage",
        "ToolResultMessage",
        "BashExecutionMessage",
        "CustomMessage",
        "BranchSummaryMessage",
        "CompactionSummaryMessage",
        "MessageEntry",
        "ThinkingLevelChangeEntry",
        "ModelChangeEntry",
        "CompactionEntry",
        "BranchSummaryEntry",
        "CustomEntry",
        "CustomMessageEntry",
        "LabelEntry",
        "SessionInfoEntry",
        "UnknownEntry",
        "validate_entry",
        "validate_header",
        "validate_message",
    }
)


_RECORD_NAMES = frozenset(
    {
        "make_header",
        "make_message_entry",
        "make_thinking_level_change",
        "make_model_change",
        "make_compaction",
        "make_branch_summary",
        "make_custom",
        "make_custom_message",
        "make_label",
        "make_session_info",
    }
)


def __getattr__(name: str) -> Any:
    if name in _RECORD_NAMES:
        import tether.storage as module
    elif name in _MODEL_NAMES:
        from tether.builtin_plugins.storage.format import schema as module
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(module, name)
    globals()[name] = value
    return value


__all__ = [
    "ENTRY_TYPES",
    "THINKING_LEVELS",
    "dumps_bytes",
    "dumps_line",
    "dumps_record",
    "dumps_record_std",
    "js_number",
    *sorted(_RECORD_NAMES),
    *sorted(_MODEL_NAMES),
]
