"""pi-ai's provider-side repair (``transformMessages``): what must hold before a provider
sees the LLM messages — no errored/aborted assistant turns, every tool call answered, no images
for text-only models, malformed messages repaired or left out. Messages that need no change are
passed through as the same objects. Public as ``tether.providers.prepare_for_provider``.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from typing import Any

from tether.rules import is_image, sanitize_message

Message = dict[str, Any]

USER_IMAGE_OMITTED = "(image omitted: model does not support images)"
TOOL_IMAGE_OMITTED = "(tool image omitted: model does not support images)"
NO_RESULT_TEXT = "No result provided"


def prepare_for_provider(
    llm_messages: Iterable[Message],
    model: Any = None,
    *,
    supports_images: bool | None = None,
    now_ms: int | None = None,
) -> list[Message]:
    """Make LLM messages safe to send to ``model`` (pi-ai's ``transformMessages``).

    - assistant messages with ``stopReason`` ``error``/``aborted`` are dropped;
    - a tool call left without a result before the next assistant or user message (or at the end)
      gets a synthetic result ``No result provided`` with ``isError`` true (``now_ms`` stamps it);
    - without image support (``supports_images``, default: ``"image"`` in the model's ``input``,
      or true without a model), image blocks become ``(image omitted: …)`` text (tool results:
      ``(tool image omitted: …)``), consecutive placeholders collapsed;
    - a malformed message is repaired or left out
      (:mod:`tether.builtin_plugins.providers.message_check`);
    - with a ``model`` (an object or mapping with ``provider``, ``api``, ``id``), assistant
      messages from another model lose redacted and empty thinking, keep other thinking as
      text and drop ``thoughtSignature``; empty unsigned thinking is dropped for the same model.
    """
    target = _model_key(model)
    if supports_images is None:
        supports_images = model is None or "image" in (_model_field(model, "input") or ())
    stamp = int(time.time() * 1000) if now_ms is None else now_ms
    result: list[Message] = []
    pending: list[Mapping[str, Any]] = []
    answered: set[Any] = set()

    def flush() -> None:
        for call in pending:
            if call.get("id") not in answered:
                result.append(_synthetic_result(call, stamp))
        pending.clear()
        answered.clear()

    for original in llm_messages:
        message = sanitize_message(original)  # malformed stored messages: repaired or left out
        if message is None:
            continue
        role = message.get("role")
        if not supports_images:
            message = _omit_images(message)
        if role == "assistant":
            flush()
            if message.get("stopReason") in ("error", "aborted"):
                continue
            if target is not None:
                message = _for_model(message, target)
            calls = [b for b in message.get("content") or () if _is_tool_call(b)]
            if calls:
                pending[:] = calls
            result.append(message)
        elif role == "toolResult":
            answered.add(message.get("toolCallId"))
            result.append(message)
        else:
            if role == "user":
                flush()
            result.append(message)
    flush()
    return result


def _is_tool_call(block: Any) -> bool:
    return isinstance(block, dict) and block.get("type") == "toolCall"


def _synthetic_result(call: Mapping[str, Any], stamp: int) -> Message:
    return {
        "role": "toolResult",
        "toolCallId": call.get("id"),
        "toolName": call.get("name"),
        "content": [{"type": "text", "text": NO_RESULT_TEXT}],
        "isError": True,
        "timestamp": stamp,
    }


def _omit_images(message: Message) -> Message:
    role = message.get("role")
    content = message.get("content")
    if role not in ("user", "toolResult") or not isinstance(content, list):
        return message
    if not any(is_image(b) for b in content):
        return message
    placeholder = USER_IMAGE_OMITTED if role == "user" else TOOL_IMAGE_OMITTED
    out: list[Any] = []
    previous_was_placeholder = False
    for block in content:
        if is_image(block):
            if not previous_was_placeholder:
                out.append({"type": "text", "text": placeholder})
            previous_was_placeholder = True
            continue
        out.append(block)
        previous_was_placeholder = isinstance(block, dict) and block.get("text") == placeholder
    return {**message, "content": out}


def _model_field(model: Any, name: str) -> Any:
    if isinstance(model, Mapping):
        return model.get(name)
    return getattr(model, name, None)


def _model_key(model: Any) -> tuple[Any, Any, Any] | None:
    if model is None:
        return None
    return (_model_field(model, "provider"), _model_field(model, "api"), _model_field(model, "id"))


def _for_model(message: Message, target: tuple[Any, Any, Any]) -> Message:
    same = (message.get("provider"), message.get("api"), message.get("model")) == target
    blocks = message.get("content")
    if not isinstance(blocks, list):
        return message
    content: list[Any] = []
    changed = False
    for block in blocks:
        kept = _block_for_model(block, same)
        if kept is not block:
            changed = True
        if kept is not None:
            content.append(kept)
    return {**message, "content": content} if changed else message


def _block_for_model(block: Any, same: bool) -> Any:
    """One assistant block as sent to the target model (``None`` = dropped)."""
    kind = block.get("type") if isinstance(block, dict) else None
    if kind == "thinking":
        if block.get("redacted"):
            return block if same else None
        if same and block.get("thinkingSignature"):
            return block
        thinking = block.get("thinking")
        if not isinstance(thinking, str) or not thinking.strip():
            return None
        return block if same else {"type": "text", "text": thinking}
    if same:
        return block
    if kind == "text":
        return {"type": "text", "text": block.get("text")}
    if kind == "toolCall" and "thoughtSignature" in block:
        return {k: v for k, v in block.items() if k != "thoughtSignature"}
    return block


__all__ = [
    "NO_RESULT_TEXT",
    "TOOL_IMAGE_OMITTED",
    "USER_IMAGE_OMITTED",
    "prepare_for_provider",
]
