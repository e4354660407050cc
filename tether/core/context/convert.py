"""Agent messages → LLM messages: pi's ``convertToLlm``, what the coding agent hands to the
model layer. Messages that need no change are passed through as the same objects. pi-ai's
provider-side repair (``transformMessages``) is the providers' own:
``tether.providers.prepare_for_provider``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

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


def _block_images(message: Message) -> Message:
    if message.get("role") not in ("user", "toolResult"):
        return message
    content = message.get("content")
    if not isinstance(content, list) or not any(is_image(b) for b in content):
        return message
    replaced = [
        {"type": "text", "text": IMAGES_BLOCKED_TEXT} if is_image(b) else b for b in content
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


def is_image(block: Any) -> bool:
    """Whether a content block is an image (``{"type": "image", "data", "mimeType"}``)."""
    return isinstance(block, dict) and block.get("type") == "image"


def _is_text(block: Any, text: str) -> bool:
    return isinstance(block, dict) and block.get("type") == "text" and block.get("text") == text


__all__ = [
    "BRANCH_SUMMARY_PREFIX",
    "BRANCH_SUMMARY_SUFFIX",
    "COMPACTION_SUMMARY_PREFIX",
    "COMPACTION_SUMMARY_SUFFIX",
    "IMAGES_BLOCKED_TEXT",
    "bash_execution_to_text",
    "convert_to_llm",
    "is_image",
]
