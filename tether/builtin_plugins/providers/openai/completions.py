"""The adapter for api ``"openai-completions"`` (OpenAI chat completions).

Works with every server that speaks ``POST {baseUrl}/chat/completions``: OpenAI, OpenRouter,
Ollama (``http://localhost:11434/v1``), vLLM, llama.cpp server, LM Studio. Streams SSE with
``stream_options.include_usage``; reads reasoning from ``reasoning_content`` / ``reasoning`` /
``reasoning_text`` deltas (llama.cpp, vLLM, OpenRouter). What each server accepts — the
``developer`` role, ``store: false``, ``max_completion_tokens`` or ``max_tokens``,
``reasoning_effort`` — is decided per model as pi does (``compat`` in models.json, else pi's
defaults by provider and ``baseUrl``): :mod:`tether.builtin_plugins.providers.openai.compat`.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

from tether.builtin_plugins.providers.http.assembler import Assembler
from tether.builtin_plugins.providers.http.calls import (
    HttpProvider,
    HttpRequest,
    data_url,
)
from tether.builtin_plugins.providers.http.errors import structured_error
from tether.builtin_plugins.providers.http.sse import SseEvent, parse_partial_json
from tether.builtin_plugins.providers.openai.compat import reasoning_fields, resolved_compat
from tether.builtin_plugins.providers.openai.tool_ids import ToolIds
from tether.builtin_plugins.providers.provider_errors import is_overflow_wording
from tether.providers import (
    ContextOverflowError,
    LlmContext,
    Model,
    PermanentError,
    StreamEvent,
    StreamOptions,
    dumps_clean,
    token_count,
)

API = "openai-completions"
REASONING_FIELDS = ("reasoning_content", "reasoning", "reasoning_text")
TOOL_IMAGES_TEXT = "Attached image(s) from tool result:"
STOP_REASONS = {
    "stop": "stop",
    "end": "stop",
    "length": "length",
    "tool_calls": "toolUse",
    "function_call": "toolUse",
}


def convert_messages(model: Model, context: LlmContext) -> list[dict[str, Any]]:
    """LLM messages (already prepared for the provider) → chat-completions messages; ids of
    other models' tool calls as pi sends them (:mod:`~tether.builtin_plugins.providers.openai.
    tool_ids`)."""
    out: list[dict[str, Any]] = []
    if context.system_prompt:
        developer = model.reasoning and resolved_compat(model)["supportsDeveloperRole"]
        out.append(
            {"role": "developer" if developer else "system", "content": context.system_prompt}
        )
    pending_images: list[dict[str, Any]] = []
    ids = ToolIds(model)
    for msg in context.messages:
        role = msg.get("role")
        if role != "toolResult" and pending_images:
            out.append(_images_message(pending_images))
            pending_images = []
        if role == "user":
            converted = _user(msg)
            if converted is not None:
                out.append(converted)
        elif role == "assistant":
            converted = _assistant(msg, ids)
            if converted is not None:
                out.append(converted)
        elif role == "toolResult":
            content = msg.get("content") or []
            text = "\n".join(b.get("text", "") for b in content if b.get("type") == "text")
            images = [b for b in content if b.get("type") == "image"]
            out.append(
                {
                    "role": "tool",
                    "content": text or "(see attached image)",
                    "tool_call_id": ids.result(msg.get("toolCallId", "")),
                }
            )
            if "image" in model.input:
                pending_images += [
                    {"type": "image_url", "image_url": {"url": data_url(b)}} for b in images
                ]
    if pending_images:
        out.append(_images_message(pending_images))
    return out


def _images_message(images: list[dict[str, Any]]) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": TOOL_IMAGES_TEXT}, *images]}


def _user(msg: dict[str, Any]) -> dict[str, Any] | None:
    content = msg.get("content")
    if isinstance(content, str):
        return {"role": "user", "content": content}
    parts: list[dict[str, Any]] = []
    for block in content or []:
        if block.get("type") == "text":
            parts.append({"type": "text", "text": block.get("text", "")})
        elif block.get("type") == "image":
            parts.append({"type": "image_url", "image_url": {"url": data_url(block)}})
    if not parts:
        return None
    if len(parts) == 1 and parts[0]["type"] == "text":
        return {"role": "user", "content": parts[0]["text"]}
    return {"role": "user", "content": parts}


def _assistant(msg: dict[str, Any], ids: ToolIds) -> dict[str, Any] | None:
    blocks = msg.get("content") or []
    text = "".join(
        b.get("text", "") for b in blocks if b.get("type") == "text" and b.get("text", "").strip()
    )
    out: dict[str, Any] = {"role": "assistant", "content": text or None}
    thinking = [b for b in blocks if b.get("type") == "thinking" and b.get("thinking", "").strip()]
    signature = thinking[0].get("thinkingSignature") if thinking else None
    if signature in REASONING_FIELDS:  # give reasoning back the way the server sent it
        out[signature] = "\n".join(b["thinking"] for b in thinking)
    calls = [b for b in blocks if b.get("type") == "toolCall"]
    if calls:
        out["tool_calls"] = [
            {
                "id": ids.call(msg, c.get("id", "")),
                "type": "function",
                "function": {
                    "name": c.get("name", ""),
                    "arguments": dumps_clean(c.get("arguments") or {}),
                },
            }
            for c in calls
        ]
    if not text and not calls:
        return None
    return out


def usage_of(raw: dict[str, Any]) -> dict[str, Any]:
    """OpenAI usage → pi's usage (cache hits and writes taken out of ``input``)."""
    where = "provider response: usage"  # a non-finite count is absent (one warning)
    prompt = token_count(raw, "prompt_tokens", where) or 0
    details = raw.get("prompt_tokens_details") or {}
    cached = (
        token_count(details, "cached_tokens", f"{where}.prompt_tokens_details")
        or token_count(raw, "prompt_cache_hit_tokens", where)
        or 0
    )
    write = token_count(details, "cache_write_tokens", f"{where}.prompt_tokens_details") or 0
    cache_read = max(0, cached - write) if write > 0 else cached
    return {
        "input": max(0, prompt - cache_read - write),
        "output": token_count(raw, "completion_tokens", where) or 0,
        "cacheRead": cache_read,
        "cacheWrite": write,
    }


class OpenAIAssembler(Assembler):
    def __init__(self, model: Model, context: LlmContext) -> None:
        super().__init__(model, context)
        self.text: dict[str, Any] | None = None
        self.thinking: dict[str, Any] | None = None
        self.calls: dict[int | str, dict[str, Any]] = {}
        self.args: dict[int, str] = {}  # id(block) -> argument text so far
        self.finish_reason: str | None = None
        self.done = False

    def feed(self, event: SseEvent) -> Iterator[StreamEvent]:
        data = event.data.strip()
        if not data:
            return
        if data == "[DONE]":
            self.done = True
            return
        try:
            chunk = json.loads(data)
        except ValueError as exc:
            raise PermanentError(f"invalid stream chunk from the provider: {data[:200]}") from exc
        if not isinstance(chunk, dict):
            return
        if chunk.get("error"):
            raise structured_error(chunk["error"])
        yield from self._chunk(chunk)

    def _chunk(self, chunk: dict[str, Any]) -> Iterator[StreamEvent]:
        msg = self.message
        if chunk.get("id") and "responseId" not in msg:
            msg["responseId"] = chunk["id"]
        if chunk.get("model") and chunk["model"] != self.model.id:
            msg.setdefault("responseModel", chunk["model"])
        choices = chunk.get("choices") or []
        choice = choices[0] if choices and isinstance(choices[0], dict) else {}
        usage = chunk.get("usage") or choice.get("usage")
        if isinstance(usage, dict):
            msg["usage"].update(usage_of(usage))
        if choice.get("finish_reason"):
            self._set_finish(choice["finish_reason"])
        delta = choice.get("delta") or {}
        reasoning = next((f for f in REASONING_FIELDS if delta.get(f)), None)
        if reasoning:
            if self.thinking is None:
                self.thinking = {"type": "thinking", "thinking": "", "thinkingSignature": reasoning}
                msg["content"].append(self.thinking)
            self.thinking["thinking"] += delta[reasoning]
            yield self._event("thinking_delta", self.thinking, delta[reasoning])
        if isinstance(delta.get("content"), str) and delta["content"]:
            if self.text is None:
                self.text = {"type": "text", "text": ""}
                msg["content"].append(self.text)
            self.text["text"] += delta["content"]
            yield self._event("text_delta", self.text, delta["content"])
        for call in delta.get("tool_calls") or []:
            block = self._call_block(call)
            piece = (call.get("function") or {}).get("arguments") or ""
            if piece:
                self.args[id(block)] += piece
                block["arguments"] = parse_partial_json(self.args[id(block)])
            yield self._event("toolcall_delta", block, piece)

    def _call_block(self, call: dict[str, Any]) -> dict[str, Any]:
        key = call.get("index", call.get("id", len(self.calls)))
        block = self.calls.get(key)
        new_id = call.get("id")
        if block is not None and new_id and block["id"] and block["id"] != new_id:
            key, block = f"{key}:{new_id}", None  # same index reused for another call
        if block is None and new_id:
            block = next((b for b in self.calls.values() if b["id"] == new_id), None)
        if block is None:
            block = {"type": "toolCall", "id": "", "name": "", "arguments": {}}
            self.calls[key] = block
            self.args[id(block)] = ""
            self.message["content"].append(block)
        if call.get("id") and not block["id"]:
            block["id"] = call["id"]
        name = (call.get("function") or {}).get("name")
        if name and not block["name"]:
            block["name"] = name
        return block

    def _event(self, kind: Any, block: dict[str, Any], delta: str) -> StreamEvent:
        index = self.message["content"].index(block)
        return StreamEvent(kind, partial=self.message, delta=delta, content_index=index)

    def _set_finish(self, reason: str) -> None:
        self.finish_reason = reason
        stop = STOP_REASONS.get(reason)
        self.message["stopReason"] = stop or "error"
        if stop is None:
            self.message["errorMessage"] = f"Provider finish_reason: {reason}"

    def parse_body(self, data: dict[str, Any]) -> None:
        msg = self.message
        if data.get("id"):
            msg["responseId"] = data["id"]
        if data.get("model") and data["model"] != self.model.id:
            msg["responseModel"] = data["model"]
        if isinstance(data.get("usage"), dict):
            msg["usage"].update(usage_of(data["usage"]))
        choice = (data.get("choices") or [{}])[0]
        answer = choice.get("message") or {}
        reasoning = next((f for f in REASONING_FIELDS if answer.get(f)), None)
        if reasoning:
            msg["content"].append(
                {"type": "thinking", "thinking": answer[reasoning], "thinkingSignature": reasoning}
            )
        content = answer.get("content")
        if isinstance(content, list):
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        if content:
            msg["content"].append({"type": "text", "text": content})
        for call in answer.get("tool_calls") or []:
            block = self._call_block({**call, "index": len(self.calls)})
            self.args[id(block)] = (call.get("function") or {}).get("arguments") or ""
        self._set_finish(choice.get("finish_reason") or "stop")

    def finish_blocks(self) -> None:
        for block in self.calls.values():
            block["arguments"] = parse_partial_json(self.args.get(id(block), ""))
            if not block["id"]:
                block["id"] = f"call_{uuid.uuid4().hex[:24]}"

    def complete(self) -> bool:
        return self.finish_reason is not None or self.done

    def stop_error(self, text: str) -> Exception:
        return ContextOverflowError(text) if is_overflow_wording(text) else PermanentError(text)


class OpenAICompletionsProvider(HttpProvider):
    """The ``openai-completions`` adapter."""

    api = API
    assembler = OpenAIAssembler

    def build_request(
        self, model: Model, context: LlmContext, options: StreamOptions, *, stream: bool
    ) -> HttpRequest:
        compat = resolved_compat(model)
        headers = {"content-type": "application/json", "accept": "application/json"}
        if stream:
            headers["accept"] = "text/event-stream"
        if options.api_key:
            headers["authorization"] = f"Bearer {options.api_key}"
        headers.update({k.lower(): v for k, v in {**model.headers, **options.headers}.items()})
        body: dict[str, Any] = {
            "model": model.id,
            "messages": convert_messages(model, context),
            "stream": stream,
        }
        if stream and compat["supportsUsageInStreaming"] is not False:
            body["stream_options"] = {"include_usage": True}
        if compat["supportsStore"]:
            body["store"] = False
        body[compat["maxTokensField"]] = options.max_tokens or min(model.max_tokens, 32000)
        if options.temperature is not None:
            body["temperature"] = options.temperature
        if context.tools:
            body["tools"] = [
                {
                    "type": "function",
                    "function": {
                        "name": t["name"],
                        "description": t.get("description", ""),
                        "parameters": t.get("parameters") or {"type": "object", "properties": {}},
                    },
                }
                for t in context.tools
            ]
        level = options.reasoning if options.reasoning not in (None, "off") else None
        body.update(reasoning_fields(model, compat, level))
        url = model.base_url.rstrip("/") + "/chat/completions"
        return HttpRequest(url, headers, body)
