"""Malformed stored messages: what a provider request can and cannot carry.

pi keeps a malformed message (a user ``content`` that is an object, an assistant ``content``
that is a string, a tool result without ``toolCallId``…) in the context as it is, and tether's
context (``session context``) does the same. Only the *request* differs: before a provider
sees the messages, :func:`sanitize_message` repairs what has one obvious meaning and leaves
out what has none, so a bad line costs one warning instead of every later run. The session
file is never changed.

Rules (``docs/safety.md``):

- a string ``content`` of an assistant or tool result → one text block;
- a ``content`` of any other wrong type (object, number, missing) → the message is left out;
- a block that is not an object, or a text/thinking/image block whose text/thinking/data is
  not a string, or a tool call without a string ``id``/``name`` → the block is left out (a
  message left with no block at all is left out);
- tool-call ``arguments`` that are not an object → ``{}``;
- a tool result without a string ``toolCallId`` → left out (its tool call then gets pi's
  synthetic "No result provided" result).

:func:`message_issues` lists the same findings as ``(field, what happens)`` pairs.
"""

from __future__ import annotations

from typing import Any

Message = dict[str, Any]
Issues = list[tuple[str, str]]

LEFT_OUT = "message left out of model requests"
_CHECKED_ROLES = ("user", "assistant", "toolResult", "custom")


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {dict: "object", list: "list", str: "string", bool: "boolean"}.get(
        type(value), "number" if isinstance(value, (int, float)) else type(value).__name__
    )


def _block_problem(block: Any, role: str) -> str | None:
    """Why ``block`` cannot be sent (``None``: it can)."""
    if not isinstance(block, dict):
        return f"expected a content block object, got {_kind(block)}"
    kind = block.get("type")
    if kind == "text" and not isinstance(block.get("text"), str):
        return f"text: expected a string, got {_kind(block.get('text'))}"
    if kind == "image" and role != "assistant":
        if not isinstance(block.get("data"), str) or not isinstance(block.get("mimeType"), str):
            return "image: expected string data and mimeType"
    if role == "assistant":
        if kind == "thinking" and not isinstance(block.get("thinking"), str):
            return f"thinking: expected a string, got {_kind(block.get('thinking'))}"
        if kind == "toolCall":
            for key in ("id", "name"):
                if not isinstance(block.get(key), str):
                    return f"{key}: expected a string, got {_kind(block.get(key))}"
    return None


def _blocks(content: list[Any], role: str, issues: Issues | None) -> list[Any] | None:
    """``content`` without the blocks that cannot be sent (same list if all can)."""
    kept: list[Any] = []
    changed = False
    for index, block in enumerate(content):
        problem = _block_problem(block, role)
        if problem is None and role == "assistant" and block.get("type") == "toolCall":
            arguments = block.get("arguments")
            if not isinstance(arguments, dict):
                if issues is not None:
                    issues.append(
                        (
                            f"message.content[{index}].arguments",
                            f"expected an object, got {_kind(arguments)}; sent as {{}}",
                        )
                    )
                block = {**block, "arguments": {}}
                changed = True
        if problem is not None:
            if issues is not None:
                issues.append((f"message.content[{index}]", f"{problem}; block left out"))
            changed = True
            continue
        kept.append(block)
    if not changed:
        return content
    if content and not kept:
        if issues:  # one finding per bad block; the last one says the message is left out
            field, problem = issues[-1]
            issues[-1] = (
                field,
                problem.replace("; block left out", f"; no block left: {LEFT_OUT}"),
            )
        return None
    return kept


def _check(message: Any, issues: Issues | None) -> Message | None:
    if not isinstance(message, dict):
        return message
    role = message.get("role")
    if role not in _CHECKED_ROLES:
        return message
    if role == "toolResult" and not isinstance(message.get("toolCallId"), str):
        if issues is not None:
            found = _kind(message.get("toolCallId")) if "toolCallId" in message else "nothing"
            issues.append(("message.toolCallId", f"expected a string, got {found}; {LEFT_OUT}"))
        return None
    if "content" not in message and role == "custom":
        return message  # convert_to_llm gives it no content; the providers cope
    content = message.get("content")
    if isinstance(content, str):
        if role in ("user", "custom"):
            return message
        if issues is not None:
            issues.append(("message.content", "a string, not a list of blocks; sent as one block"))
        return {**message, "content": [{"type": "text", "text": content}]}
    if not isinstance(content, list):
        if issues is not None:
            found = _kind(content) if "content" in message else "nothing"
            issues.append(
                (
                    "message.content",
                    f"expected a list of blocks or a string, got {found}; {LEFT_OUT}",
                )
            )
        return None
    kept = _blocks(content, str(role), issues)
    if kept is None:
        return None
    return message if kept is content else {**message, "content": kept}


def sanitize_message(message: Message) -> Message | None:
    """``message`` as a provider can take it: the same object when nothing is wrong, a repaired
    copy, or ``None`` when it must be left out (see the module doc)."""
    return _check(message, None)


def message_issues(message: Any) -> Issues:
    """``(field, problem and what happens)`` for each thing :func:`sanitize_message` changes."""
    issues: Issues = []
    _check(message, issues)
    return issues


__all__ = ["LEFT_OUT", "message_issues", "sanitize_message"]
