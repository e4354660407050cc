"""Agent messages → LLM messages: pi's ``convertToLlm`` and pi-ai's provider-side repair.

- :func:`convert_to_llm` — what the coding agent hands to the model layer.
- :func:`prepare_for_provider` — what must hold before a provider sees the messages: no
  errored/aborted assistant turns, every tool call answered, no images for text-only models.
Messages that need no change are passed through as the same objects.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from typing import Any

from tether.core.context.message_check import sanitize_message

Message = dict[str, Any]

COMPACTION_SUMMARY_PREFIX = (
    "The conversation history before this point was compacted into the following summary:\n\n"
    "<summary>\n"
)
COMPACTION_SUMMARY_SUFFIX = "\n</summary>"
BRANCH_SUMMARY_PREFIX = (
    "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n"
)
BRANCH_SUMMARY_SUFFIX = "</summary>"
IMAGES_BLOCKED_TEXT = "Image reading is disabled."
USER_IMAGE_OMITTED = "(image omitted: model does not support images)"
TOOL_IMAGE_OMITTED = "(tool image omitted: model does not support images)"
NO_RESULT_TEXT = "No result provided"


# ---------------------------------------------------------------------------------------------
# Agent messages → LLM messages
# ---------------------------------------------------------------------------------------------


def bash_execution_to_text(message: Mapping[str, Any]) -> str:
    """The user-message text pi sends for a ``bashExecution`` message."""
    parts = [f"Ran `{_js_str(message.get('command'))}`\n"]
    output = message.get("output")
    parts.append(f"```\n{_js_str(output)}\n```" if output else "(no output)")
    exit_code = message.get("exitCode")
    if message.get("cancelled"):
        parts.append("\n\n(command cancelled)")
    elif exit_code is not None and exit_code != 0:
        parts.append(f"\n\nCommand exited with code {_js_str(exit_code)}")
    if message.get("truncated") and message.get("fullOutputPath"):
        parts.append(f"\n\n[Output truncated. Full output: {message['fullOutputPath']}]")
    return "".join(parts)


def _js_str(value: Any) -> str:
    """``String(value)`` for the scalars that appear in bash messages."""
    if value is None:
        return "undefined"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _user_text(text: str, source: Mapping[str, Any]) -> Message:
    out: Message = {"role": "user", "content": [{"type": "text", "text": text}]}
    if "timestamp" in source:
        out["timestamp"] = source["timestamp"]
    return out


def _to_llm(message: Message) -> Message | None:
    role = message.get("role")
    if role == "user" or role == "assistant" or role == "toolResult":
        return message
    if role == "bashExecution":
        if message.get("excludeFromContext"):
            return None
        return _user_text(bash_execution_to_text(message), message)
    if role == "custom":
        content = message.get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        out: Message = {"role": "user"}
        if "content" in message:
            out["content"] = content
        if "timestamp" in message:
            out["timestamp"] = message["timestamp"]
        return out
    if role == "branchSummary":
        summary = _js_str(message.get("summary"))
        return _user_text(BRANCH_SUMMARY_PREFIX + summary + BRANCH_SUMMARY_SUFFIX, message)
    if role == "compactionSummary":
        summary = _js_str(message.get("summary"))
        return _user_text(COMPACTION_SUMMARY_PREFIX + summary + COMPACTION_SUMMARY_SUFFIX, message)
    return None


def convert_to_llm(messages: Iterable[Message], *, block_images: bool = False) -> list[Message]:
    """pi's ``convertToLlm``: user/assistant/toolResult unchanged (same objects), bash executions,
    custom messages and summaries become user messages, anything else is dropped.

    ``block_images`` (pi's ``images.blockImages``) replaces image blocks of user and tool-result
    messages with ``Image reading is disabled.`` (consecutive duplicates collapsed).
    """
    out: list[Message] = []
    append = out.append
    for message in messages:
        if not isinstance(message, dict):
            continue
        role = message.get("role")
        if role == "user" or role == "assistant" or role == "toolResult":
            append(message)  # the common case, without a call
            continue
        converted = _to_llm(message)
        if converted is not None:
            append(converted)
    if block_images:
        out = [_block_images(m) for m in out]
    return out


def kept_by_convert(message: Any) -> bool:
    """Whether :func:`convert_to_llm` keeps ``message`` (without building its LLM form)."""
    if not isinstance(message, dict):
        return False
    role = message.get("role")
    if role == "user" or role == "assistant" or role == "toolResult":
        return True
    if role == "bashExecution":
        return not message.get("excludeFromContext")
    return _to_llm(message) is not None


def _block_images(message: Message) -> Message:
    if message.get("role") not in ("user", "toolResult"):
        return message
    content = message.get("content")
    if not isinstance(content, list) or not any(_is_image(b) for b in content):
        return message
    replaced = [
        {"type": "text", "text": IMAGES_BLOCKED_TEXT} if _is_image(b) else b for b in content
    ]
    kept = [
        block
        for i, block in enumerate(replaced)
        if not (
            i > 0
            and _is_text(block, IMAGES_BLOCKED_TEXT)
            and _is_text(replaced[i - 1], IMAGES_BLOCKED_TEXT)
        )
    ]
    return {**message, "content": kept}


def _is_image(block: Any) -> bool:
    return isinstance(block, dict) and block.get("type") == "image"


def _is_text(block: Any, text: str) -> bool:
    return isinstance(block, dict) and block.get("type") == "text" and block.get("text") == text


# ---------------------------------------------------------------------------------------------
# Provider-side repair
# ---------------------------------------------------------------------------------------------


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
    - a malformed message is repaired or left out (:mod:`tether.core.context.message_check`);
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
    if not any(_is_image(b) for b in content):
        return message
    placeholder = USER_IMAGE_OMITTED if role == "user" else TOOL_IMAGE_OMITTED
    out: list[Any] = []
    previous_was_placeholder = False
    for block in content:
        if _is_image(block):
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
    "BRANCH_SUMMARY_PREFIX",
    "BRANCH_SUMMARY_SUFFIX",
    "COMPACTION_SUMMARY_PREFIX",
    "COMPACTION_SUMMARY_SUFFIX",
    "IMAGES_BLOCKED_TEXT",
    "NO_RESULT_TEXT",
    "TOOL_IMAGE_OMITTED",
    "USER_IMAGE_OMITTED",
    "bash_execution_to_text",
    "convert_to_llm",
    "kept_by_convert",
    "prepare_for_provider",
]
