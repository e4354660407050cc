"""The adapter for api ``"anthropic-messages"`` (Anthropic Messages API).

``POST {baseUrl}/v1/messages`` with ``x-api-key`` and ``anthropic-version``; SSE events
``message_start`` / ``content_block_*`` / ``message_delta`` / ``message_stop`` (and ``error``).
Thinking blocks keep their ``signature`` (``thinkingSignature``) so they can be sent back;
redacted thinking keeps its opaque data. Prompt caching marks the system prompt and the last
user block ``cache_control: ephemeral``, as pi does.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from tether.builtin_plugins.providers.http.assembler import Assembler
from tether.builtin_plugins.providers.http.calls import HttpProvider, HttpRequest
from tether.builtin_plugins.providers.http.errors import structured_error
from tether.builtin_plugins.providers.http.sse import SseEvent, parse_partial_json
from tether.providers import (
    LlmContext,
    Model,
    PermanentError,
    StreamEvent,
    StreamOptions,
    token_count,
)

API = "anthropic-messages"
VERSION = "2023-06-01"
CACHE = {"type": "ephemeral"}
STOP_REASONS = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "pause_turn": "stop",
    "max_tokens": "length",
    "tool_use": "toolUse",
}
THINKING_BUDGETS = {"minimal": 1024, "low": 2048, "medium": 8192, "high": 16384, "xhigh": 16384}


def tool_id(raw: str) -> str:
    """Anthropic accepts tool ids matching ``^[a-zA-Z0-9_-]{1,64}$``."""
    return re.sub(r"[^a-zA-Z0-9_-]", "_", raw)[:64] or "tool"


def _image(block: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "image",
        "source": {
            "type": "base64",
            "media_type": block.get("mimeType", "image/png"),
            "data": block.get("data", ""),
        },
    }


def _blocks(content: Any) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content.strip() else []
    out: list[dict[str, Any]] = []
    for block in content or []:
        if block.get("type") == "text" and block.get("text", "").strip():
            out.append({"type": "text", "text": block["text"]})
        elif block.get("type") == "image":
            out.append(_image(block))
    return out


def _tool_result(msg: dict[str, Any]) -> dict[str, Any]:
    content = msg.get("content") or []
    result: Any
    if not any(b.get("type") == "image" for b in content):
        result = "\n".join(b.get("text", "") for b in content if b.get("type") == "text")
    else:
        result = _blocks(content)
        if not any(b["type"] == "text" for b in result):
            result.insert(0, {"type": "text", "text": "(see attached image)"})
    return {
        "type": "tool_result",
        "tool_use_id": tool_id(msg.get("toolCallId", "")),
        "content": result,
        "is_error": bool(msg.get("isError")),
    }


def _assistant(msg: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for block in msg.get("content") or []:
        kind = block.get("type")
        if kind == "text" and block.get("text", "").strip():
            out.append({"type": "text", "text": block["text"]})
        elif kind == "thinking":
            signature = block.get("thinkingSignature") or ""
            if block.get("redacted"):
                out.append({"type": "redacted_thinking", "data": signature})
            elif block.get("thinking", "").strip():
                if signature.strip():
                    out.append(
                        {"type": "thinking", "thinking": block["thinking"], "signature": signature}
                    )
                else:
                    out.append({"type": "text", "text": block["thinking"]})
        elif kind == "toolCall":
            out.append(
                {
                    "type": "tool_use",
                    "id": tool_id(block.get("id", "")),
                    "name": block.get("name", ""),
                    "input": block.get("arguments") or {},
                }
            )
    return out


def convert_messages(context: LlmContext) -> list[dict[str, Any]]:
    """LLM messages (already prepared for the provider) → Messages API messages."""
    out: list[dict[str, Any]] = []
    for msg in context.messages:
        role = msg.get("role")
        if role == "user":
            blocks = _blocks(msg.get("content"))
            if blocks:
                out.append({"role": "user", "content": blocks})
        elif role == "assistant":
            blocks = _assistant(msg)
            if blocks:
                out.append({"role": "assistant", "content": blocks})
        elif role == "toolResult":
            result = _tool_result(msg)
            last = out[-1] if out else None
            if last and last["role"] == "user" and last.get("_tool_results"):
                last["content"].append(result)
            else:
                out.append({"role": "user", "content": [result], "_tool_results": True})
    for message in out:
        message.pop("_tool_results", None)
    if out and out[-1]["role"] == "user" and out[-1]["content"]:
        out[-1]["content"][-1]["cache_control"] = dict(CACHE)
    return out


def usage_of(raw: dict[str, Any], usage: dict[str, Any]) -> None:
    """Copy the Anthropic counts that are present (``None`` keeps the earlier value)."""
    for src, dst in (
        ("input_tokens", "input"),
        ("output_tokens", "output"),
        ("cache_read_input_tokens", "cacheRead"),
        ("cache_creation_input_tokens", "cacheWrite"),
    ):
        count = token_count(raw, src, "provider response: usage")  # non-finite: absent
        if count is not None:
            usage[dst] = count


class AnthropicAssembler(Assembler):
    def __init__(self, model: Model, context: LlmContext) -> None:
        super().__init__(model, context)
        self.by_index: dict[int, dict[str, Any]] = {}
        self.args: dict[int, str] = {}
        self.started = self.stopped = False

    def feed(self, event: SseEvent) -> Iterator[StreamEvent]:
        if event.event == "error":
            try:
                data = json.loads(event.data)
            except ValueError:
                data = {"error": {"type": "api_error", "message": event.data}}
            raise structured_error(data.get("error") if isinstance(data, dict) else data)
        if not event.data.strip() or event.event == "ping":
            return
        try:
            data = json.loads(event.data)
        except ValueError as exc:
            bad = event.data[:200]
            raise PermanentError(f"invalid stream event from the provider: {bad}") from exc
        yield from self._event(data)

    def _event(self, data: dict[str, Any]) -> Iterator[StreamEvent]:
        kind = data.get("type")
        msg = self.message
        if kind == "message_start":
            self.started = True
            start = data.get("message") or {}
            if start.get("id"):
                msg["responseId"] = start["id"]
            usage_of(start.get("usage") or {}, msg["usage"])
        elif kind == "content_block_start":
            self._start_block(int(data.get("index", len(self.by_index))), data["content_block"])
        elif kind == "content_block_delta":
            yield from self._delta(int(data.get("index", 0)), data.get("delta") or {})
        elif kind == "content_block_stop":
            block = self.by_index.get(int(data.get("index", -1)))
            if block is not None and block["type"] == "toolCall":
                block["arguments"] = parse_partial_json(self.args[id(block)])
        elif kind == "message_delta":
            reason = (data.get("delta") or {}).get("stop_reason")
            if reason:
                self._set_stop(reason)
            usage_of(data.get("usage") or {}, msg["usage"])
        elif kind == "message_stop":
            self.stopped = True
        elif kind == "error":
            raise structured_error(data.get("error"))

    def _start_block(self, index: int, raw: dict[str, Any]) -> dict[str, Any] | None:
        kind = raw.get("type")
        block: dict[str, Any]
        if kind == "text":
            block = {"type": "text", "text": raw.get("text", "")}
        elif kind == "thinking":
            block = {
                "type": "thinking",
                "thinking": raw.get("thinking", ""),
                "thinkingSignature": raw.get("signature", ""),
            }
        elif kind == "redacted_thinking":
            block = {
                "type": "thinking",
                "thinking": "[Reasoning redacted]",
                "thinkingSignature": raw.get("data", ""),
                "redacted": True,
            }
        elif kind == "tool_use":
            block = {
                "type": "toolCall",
                "id": raw.get("id", ""),
                "name": raw.get("name", ""),
                "arguments": raw.get("input") or {},
            }
            self.args[id(block)] = ""
        else:
            return None
        self.by_index[index] = block
        self.message["content"].append(block)
        return block

    def _delta(self, index: int, delta: dict[str, Any]) -> Iterator[StreamEvent]:
        block = self.by_index.get(index)
        if block is None:
            return
        kind = delta.get("type")
        position = self.message["content"].index(block)
        if kind == "text_delta" and block["type"] == "text":
            text = delta.get("text", "")
            block["text"] += text
            yield StreamEvent("text_delta", self.message, text, content_index=position)
        elif kind == "thinking_delta" and block["type"] == "thinking":
            block["thinking"] += delta.get("thinking", "")
            yield StreamEvent(
                "thinking_delta", self.message, delta.get("thinking", ""), content_index=position
            )
        elif kind == "signature_delta" and block["type"] == "thinking":
            block["thinkingSignature"] = (block.get("thinkingSignature") or "") + delta.get(
                "signature", ""
            )
        elif kind == "input_json_delta" and block["type"] == "toolCall":
            piece = delta.get("partial_json", "")
            self.args[id(block)] += piece
            block["arguments"] = parse_partial_json(self.args[id(block)])
            yield StreamEvent("toolcall_delta", self.message, piece, content_index=position)

    def _set_stop(self, reason: str) -> None:
        stop = STOP_REASONS.get(reason)
        self.message["stopReason"] = stop or "error"
        if stop is None:
            self.message["errorMessage"] = f"Provider stop_reason: {reason}"

    def parse_body(self, data: dict[str, Any]) -> None:
        self.started = self.stopped = True
        if data.get("id"):
            self.message["responseId"] = data["id"]
        usage_of(data.get("usage") or {}, self.message["usage"])
        for index, raw in enumerate(data.get("content") or []):
            self._start_block(index, raw)
        self._set_stop(data.get("stop_reason") or "end_turn")

    incomplete = "stream ended before message_stop"

    def finish_blocks(self) -> None:
        for block in self.by_index.values():
            if block["type"] == "toolCall" and self.args.get(id(block)):
                block["arguments"] = parse_partial_json(self.args[id(block)])

    def complete(self) -> bool:
        return self.stopped


class AnthropicMessagesProvider(HttpProvider):
    """The ``anthropic-messages`` adapter."""

    api = API
    assembler = AnthropicAssembler

    def build_request(
        self, model: Model, context: LlmContext, options: StreamOptions, *, stream: bool
    ) -> HttpRequest:
        headers = {
            "content-type": "application/json",
            "accept": "text/event-stream" if stream else "application/json",
            "anthropic-version": VERSION,
        }
        if options.api_key:
            headers["x-api-key"] = options.api_key
        headers.update({k.lower(): v for k, v in {**model.headers, **options.headers}.items()})
        max_tokens = options.max_tokens or min(model.max_tokens, 32000)
        body: dict[str, Any] = {
            "model": model.id,
            "messages": convert_messages(context),
            "max_tokens": max_tokens,
            "stream": stream,
        }
        if context.system_prompt:
            body["system"] = [
                {"type": "text", "text": context.system_prompt, "cache_control": dict(CACHE)}
            ]
        if context.tools:
            body["tools"] = [
                {
                    "name": t["name"],
                    "description": t.get("description", ""),
                    "input_schema": {
                        "type": "object",
                        "properties": (t.get("parameters") or {}).get("properties") or {},
                        "required": (t.get("parameters") or {}).get("required") or [],
                    },
                }
                for t in context.tools
            ]
        level = options.reasoning if options.reasoning not in (None, "off") else None
        if model.reasoning and level:
            budget = THINKING_BUDGETS.get(level, THINKING_BUDGETS["medium"])
            total = min(max_tokens + budget, model.max_tokens)
            if total <= budget:
                budget = max(0, total - 1024)
            body["max_tokens"] = total
            body["thinking"] = {"type": "enabled", "budget_tokens": budget}
        elif options.temperature is not None:
            body["temperature"] = options.temperature
        url = model.base_url.rstrip("/")
        url += "/messages" if url.endswith("/v1") else "/v1/messages"
        return HttpRequest(url, headers, body)
