"""Text rendering for ``tether session context`` and ``tether session estimate`` (not a plugin)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any


def _clip(text: str, limit: int) -> str:
    """One line of at most ``limit`` characters, newlines shown as ``⏎``."""
    flat = text.replace("\r\n", "\n").replace("\n", " ⏎ ")
    if len(flat) <= limit:
        return flat
    return f"{flat[:limit]}… (+{len(flat) - limit} chars)"


def _block_lines(block: Any, limit: int) -> list[str]:
    if not isinstance(block, dict):
        return [_clip(str(block), limit)]
    kind = block.get("type")
    if kind == "text":
        return [_clip(str(block.get("text", "")), limit)]
    if kind == "thinking":
        return ["(thinking) " + _clip(str(block.get("thinking", "")), limit)]
    if kind == "toolCall":
        arguments = json.dumps(block.get("arguments"), ensure_ascii=False)
        return [f"→ {block.get('name')} " + _clip(arguments, limit)]
    if kind == "image":
        size = len(str(block.get("data", "")))
        return [f"[image {block.get('mimeType', '?')}, {size} base64 chars]"]
    return [f"[{kind}]"]


def _content_lines(content: Any, limit: int) -> list[str]:
    if isinstance(content, str):
        return [_clip(content, limit)]
    if isinstance(content, list):
        return [line for block in content for line in _block_lines(block, limit)]
    return []


def _title(index: int, message: dict[str, Any]) -> str:
    role = message.get("role")
    details = []
    if role == "assistant":
        details.append(f"{message.get('provider')}/{message.get('model')}")
        details.append(str(message.get("stopReason")))
    elif role == "toolResult":
        details.append(str(message.get("toolName")))
        if message.get("isError"):
            details.append("error")
    elif role == "custom":
        details.append(str(message.get("customType")))
    elif role == "compactionSummary":
        details.append(f"tokens before {message.get('tokensBefore')}")
    elif role == "bashExecution" and message.get("excludeFromContext"):
        details.append("excluded from context")
    suffix = f" ({', '.join(details)})" if details else ""
    return f"[{index}] {role}{suffix}"


def _body_lines(message: dict[str, Any], limit: int) -> list[str]:
    role = message.get("role")
    if role in ("branchSummary", "compactionSummary"):
        return [_clip(str(message.get("summary", "")), limit)]
    if role == "bashExecution":
        lines = [f"$ {message.get('command')}"]
        output = str(message.get("output") or "")
        return [*lines, _clip(output, limit)] if output else lines
    return _content_lines(message.get("content"), limit)


def render_context(summary: dict[str, Any], messages: list[dict[str, Any]], limit: int) -> str:
    """A readable view of a context: a summary line, then each message with a role header."""
    return "".join(context_chunks(summary, messages, limit))


def context_chunks(
    summary: dict[str, Any], messages: list[dict[str, Any]], limit: int
) -> Iterator[str]:
    """:func:`render_context` one message at a time (a 100k-message view is never one string)."""
    model = summary.get("model") or {}
    model_text = f"{model.get('provider')}/{model.get('modelId')}" if model else "none"
    yield (
        f"leaf {summary.get('leafId')} · model {model_text}"
        f" · thinking {summary.get('thinkingLevel')}\n"
        f"entries {summary['entryCount']} · messages {summary['messageCount']}"
        f" · llm messages {summary['llmMessageCount']}\n"
    )
    for index, message in enumerate(messages, 1):
        lines = ["", _title(index, message)]
        lines.extend("  " + line for line in _body_lines(message, limit))
        yield "\n".join(lines) + "\n"


def render_estimate(report: dict[str, Any]) -> str:
    """Per-entry estimates as a table, then the context size and the threshold test."""
    out = [f"{'id':<10} {'type':<22} {'role':<17} {'tokens':>8}"]
    for row in report["entries"]:
        tokens = "-" if row.get("tokens") is None else str(row["tokens"])
        out.append(
            f"{str(row.get('id')):<10} {str(row.get('type')):<22} "
            f"{str(row.get('role', '')):<17} {tokens:>8}"
        )
    estimate = report["context"]["estimateContextTokens"]
    settings = report["settings"]
    check = report["checkCompaction"]
    out += [
        "",
        f"entries total        {report['totalEntryTokens']}",
        f"context messages     {report['context']['messageCount']}",
        f"context tokens       {estimate['tokens']} (usage {estimate['usageTokens']}"
        f" + estimated {estimate['trailingTokens']})",
        f"window               {report['window']} (reserve {settings['reserveTokens']})",
        f"compaction           {'yes' if check['shouldCompact'] else 'no'} ({check['reason']})",
    ]
    return "\n".join(out) + "\n"
