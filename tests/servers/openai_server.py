"""A scripted OpenAI chat-completions server (``POST /v1/chat/completions``).

Streams ``chat.completion.chunk`` SSE events (reasoning deltas in ``reply.reasoning_field``,
tool calls as indexed argument fragments, a usage chunk when the request asks for
``stream_options.include_usage``, then ``data: [DONE]``) or answers one JSON completion.
"""

from __future__ import annotations

from typing import Any

from tests.servers.base import Reply, ScriptedServer, SseItem, Usage, chunks

OVERFLOW_MESSAGE = (
    "This model's maximum context length is 128000 tokens. However, your messages resulted "
    "in 150000 tokens. Please reduce the length of the messages."
)
ERROR_TYPES = {401: "authentication_error", 429: "rate_limit_exceeded", 500: "server_error"}


def openai_usage(usage: Usage) -> dict[str, Any]:
    details: dict[str, Any] = {"cached_tokens": usage.cache_read + usage.cache_write}
    if usage.cache_write:
        details["cache_write_tokens"] = usage.cache_write
    prompt = usage.input + usage.cache_read + usage.cache_write
    return {
        "prompt_tokens": prompt,
        "completion_tokens": usage.output,
        "total_tokens": prompt + usage.output,
        "prompt_tokens_details": details,
    }


def finish_reason(reply: Reply) -> str:
    return reply.stop or ("tool_calls" if reply.tool_calls else "stop")


class OpenAIServer(ScriptedServer):
    api = "openai-completions"
    endpoint = "/chat/completions"

    @property
    def base_url(self) -> str:
        return f"{self.url}/v1"

    def overflow(self, message: str = OVERFLOW_MESSAGE) -> Reply:
        """A 400 context-overflow error in OpenAI's wording."""
        return self.error(400, message, error_type="invalid_request_error")

    def error_body(self, reply: Reply) -> Any:
        code = "context_length_exceeded" if reply.error_message == OVERFLOW_MESSAGE else None
        return {
            "error": {
                "message": reply.error_message or "error",
                "type": reply.error_type or ERROR_TYPES.get(reply.status, "invalid_request_error"),
                "param": None,
                "code": code,
            }
        }

    def _chunk(self, model: str, delta: dict[str, Any], finish: str | None = None) -> SseItem:
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        return (
            None,
            {
                "id": "chatcmpl-test",
                "object": "chat.completion.chunk",
                "created": 0,
                "model": model,
                "choices": [choice],
            },
        )

    def sse_events(self, reply: Reply, request: Any) -> list[SseItem]:
        model = reply.model or (request or {}).get("model") or self.default_model
        size = reply.chunk_size
        events = [self._chunk(model, {"role": "assistant", "content": ""})]
        for piece in chunks(reply.thinking, size):
            events.append(self._chunk(model, {reply.reasoning_field: piece}))
        for piece in chunks(reply.text, size):
            events.append(self._chunk(model, {"content": piece}))
        for index, call in enumerate(reply.tool_calls):
            head = {
                "index": index,
                "id": call.id or f"call_{index}",
                "type": "function",
                "function": {"name": call.name, "arguments": ""},
            }
            events.append(self._chunk(model, {"tool_calls": [head]}))
            for piece in chunks(call.args_text(), size * 3):
                part = {"index": index, "function": {"arguments": piece}}
                events.append(self._chunk(model, {"tool_calls": [part]}))
        if reply.stream_error is not None:
            kind, message = reply.stream_error
            events.append((None, {"error": {"message": message, "type": kind, "code": None}}))
            return events
        events.append(self._chunk(model, {}, finish_reason(reply)))
        wants_usage = ((request or {}).get("stream_options") or {}).get("include_usage")
        if reply.usage is not None and wants_usage:
            events.append(
                (
                    None,
                    {
                        "id": "chatcmpl-test",
                        "object": "chat.completion.chunk",
                        "created": 0,
                        "model": model,
                        "choices": [],
                        "usage": openai_usage(reply.usage),
                    },
                )
            )
        if reply.done_marker:
            events.append((None, "[DONE]"))
        return events

    def json_body(self, reply: Reply, request: Any) -> Any:
        model = reply.model or (request or {}).get("model") or self.default_model
        text = "".join(chunks(reply.text, reply.chunk_size)) if reply.text is not None else None
        message: dict[str, Any] = {"role": "assistant", "content": text}
        if reply.thinking is not None:
            message[reply.reasoning_field] = "".join(chunks(reply.thinking, reply.chunk_size))
        if reply.tool_calls:
            message["tool_calls"] = [
                {
                    "id": call.id or f"call_{i}",
                    "type": "function",
                    "function": {"name": call.name, "arguments": call.args_text()},
                }
                for i, call in enumerate(reply.tool_calls)
            ]
        body: dict[str, Any] = {
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "created": 0,
            "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish_reason(reply)}],
        }
        if reply.usage is not None:
            body["usage"] = openai_usage(reply.usage)
        return body
