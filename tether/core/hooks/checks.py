"""What each hook may return: a check returns why an answer is wrong, or ``None``.

Used by :class:`tether.core.hooks.facade.Hooks`; a wrong answer is an error naming the plugin.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Check = Callable[[Any], "str | None"]
UNSTORABLE = "a message that cannot be stored as JSON"


def _kind(value: Any) -> str:
    return type(value).__name__


def expect_none(value: Any) -> str | None:
    """Hooks that return nothing (they edit the event)."""
    if value is None:
        return None
    return f"returned {_kind(value)}; this hook returns nothing (edit the event instead)"


def expect(*types: type) -> Check:
    """``None`` or an instance of one of ``types``."""
    names = " or ".join(t.__name__ for t in types)

    def check(value: Any) -> str | None:
        if value is None or isinstance(value, types):
            return None
        return f"returned {_kind(value)}, expected {names} or None"

    return check


def expect_args(value: Any) -> str | None:
    """``None`` or a list of strings (a command line)."""
    if value is None or (isinstance(value, list) and all(isinstance(a, str) for a in value)):
        return None
    return f"returned {_kind(value)}, expected a list of strings or None"


def expect_callable(value: Any) -> str | None:
    """``None`` or a function."""
    if value is None or callable(value):
        return None
    return f"returned {_kind(value)}, expected a function or None"


def expect_methods(kind: str, *methods: str) -> Check:
    """``None`` or an object with the methods of a ``kind`` (a protocol of the hookspecs)."""

    def check(value: Any) -> str | None:
        missing = [m for m in methods if not callable(getattr(value, m, None))]
        if value is None or not missing:
            return None
        return f"returned {_kind(value)}, which lacks {', '.join(missing)} of a {kind}"

    return check


#: ``None`` or a :class:`~tether.hookspecs.model_registry.ModelRegistry`
expect_registry = expect_methods(
    "ModelRegistry", "resolve", "find_model", "models", "stream", "close"
)
#: ``None`` or a :class:`~tether.hookspecs.pins.Pins`
expect_pins = expect_methods("Pins", "pins", "pin", "unpin", "previous_summary", "stored_summary")


def _block_problem(block: Any) -> str | None:
    if not isinstance(block, dict):
        return f"a content block of type {_kind(block)}"
    kind = block.get("type")
    if kind == "text" and isinstance(block.get("text"), str):
        return None
    if kind == "image" and all(isinstance(block.get(k), str) for k in ("data", "mimeType")):
        return None
    return f"a content block {_short(block)} (expected a text or image block)"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _message_problem(value: Any) -> str | None:
    if not isinstance(value, dict):
        return f"{_kind(value)} as a message"
    custom_type = value.get("customType")
    if not isinstance(custom_type, str) or not custom_type:
        return f"a message with customType={custom_type!r} (expected a non-empty str)"
    content = value.get("content")
    if isinstance(content, list):
        for block in content:
            if (problem := _block_problem(block)) is not None:
                return problem
    elif not isinstance(content, str):
        return f"a message with content={_short(content)} (expected a str or content blocks)"
    if not isinstance(value.get("display", True), bool):
        return f"a message with display={value.get('display')!r} (expected a bool)"
    if (where := _not_json(value, "")) is not None:
        return f"{UNSTORABLE} ({where})"
    return None


def _not_json(value: Any, path: str) -> str | None:
    """Where ``value`` holds something a session record cannot store, or ``None``."""
    if value is None or isinstance(value, (str, bool, int, float)):
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"{path or 'the message'} has a key of type {_kind(key)}"
            if (where := _not_json(item, f"{path}.{key}" if path else key)) is not None:
                return where
        return None
    if isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            if (where := _not_json(item, f"{path}[{index}]")) is not None:
                return where
        return None
    return f"{path} is a {_kind(value)}"


def check_before_agent_start(value: Any) -> str | None:
    """``None`` or a list of custom messages ``{"customType": str, "content": str | blocks,
    "display"?: bool, "details"?}``."""
    if value is None:
        return None
    if not isinstance(value, list):
        return f"returned {_kind(value)}, expected a list of custom messages or None"
    for message in value:
        problem = _message_problem(message)
        if problem is not None and problem.startswith(UNSTORABLE):
            return f"returned {problem}"
        if problem is not None:
            return f"returned {problem}; expected {{'customType': str, 'content': str, ...}}"
    return None


def check_context(event: Any, stored: list[Any]) -> Check:
    """A ``context`` hook returns nothing and leaves ``event.messages`` a list of message
    objects, each with a string ``role`` (the ``stored`` messages it did not touch pass as
    they are: a malformed stored line is the file's problem, not the plugin's)."""
    original: set[int] = set()

    def check(value: Any) -> str | None:
        problem = expect_none(value)
        if problem is not None:
            return problem
        messages = event.messages
        if not isinstance(messages, list):
            return f"set event.messages to {_kind(messages)}; expected a list of messages"
        if not original and stored:
            original.update(id(message) for message in stored)
        for index, item in enumerate(list.__iter__(messages)):
            if id(item) in original:
                continue
            if not isinstance(item, dict):
                return f"set event.messages[{index}] to {_kind(item)}; expected a message object"
            if not isinstance(item.get("role"), str):
                return f"set event.messages[{index}] to a message without a role: {_short(item)}"
        return None

    return check


def check_retry_decision(value: Any) -> str | None:
    """``None`` or a :class:`RetryDecision` whose ``delay_ms`` is a number of ms ≥ 0."""
    import math

    from tether.hookspecs.events import RetryDecision

    if value is None:
        return None
    if not isinstance(value, RetryDecision):
        return f"returned {_kind(value)}, expected RetryDecision or None"
    delay = value.delay_ms
    if value.retry and (
        isinstance(delay, bool)
        or not isinstance(delay, (int, float))
        or not math.isfinite(delay)
        or delay < 0
    ):
        return f"returned a RetryDecision with delay_ms={delay!r} (expected a number of ms ≥ 0)"
    return None


__all__ = [
    "check_before_agent_start",
    "check_context",
    "check_retry_decision",
    "expect",
    "expect_args",
    "expect_callable",
    "expect_methods",
    "expect_none",
    "expect_pins",
    "expect_registry",
]
