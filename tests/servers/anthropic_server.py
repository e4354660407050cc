"""A scripted Anthropic Messages server (``POST /v1/messages``).

Streams ``message_start`` / ``content_block_*`` (thinking with ``signature_delta``, text,
``tool_use`` with ``input_json_delta`` fragments) / ``message_delta`` / ``message_stop`` SSE
events, or answers one JSON message.
"""

from __future__ import annotations

import json
from typing import Any

from tests.servers.base import Reply, ScriptedServer, SseItem, chunks

OVERFLOW_MESSAGE = "prompt is too long: 213462 tokens > 200000 maximum"
ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


def stop_reason(reply: Reply) -> str:
    return reply.stop or ("tool_use" if reply.tool_calls else "end_turn")


class AnthropicServer(ScriptedServer):
    api = "anthropic-messages"
    endpoint = "/v1/messages"

    def overflow(self, message: str = OVERFLOW_MESSAGE) -> Reply:
        """A 400 context-overflow error in Anthropic's wording."""
        return self.error(400, message, error_type="invalid_request_error")

    def error_body(self, reply: Reply) -> Any:
        kind = reply.error_type or ERROR_TYPES.get(reply.status, "api_error")
        return {"type": "error", "error": {"type": kind, "message": reply.error_message or kind}}

    def _usage(self, reply: Reply, output: int) -> dict[str, Any]:
        usage = reply.usage
        if usage is None:
            return {"input_tokens": 0, "output_tokens": output}
        return {
            "input_tokens": usage.input,
            "output_tokens": output,
            "cache_read_input_tokens": usage.cache_read,
            "cache_creation_input_tokens": usage.cache_write,
        }

    def sse_events(self, reply: Reply, request: Any) -> list[SseItem]:
        model = reply.model or (request or {}).get("model") or self.default_model
        size = reply.chunk_size
        start = {
            "id": "msg_test",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [],
            "stop_reason": None,
            "usage": self._usage(reply, 1),
        }
        events: list[SseItem] = [("message_start", {"type": "message_start", "message": start})]
        events.append(("ping", {"type": "ping"}))
        index = 0

        def block(content_block: dict[str, Any], deltas: list[dict[str, Any]]) -> None:
            nonlocal index
            events.append(
                (
                    "content_block_start",
                    {"type": "content_block_start", "index": index, "content_block": content_block},
                )
            )
            for delta in deltas:
                events.append(
                    (
                        "content_block_delta",
                        {"type": "content_block_delta", "index": index, "delta": delta},
                    )
                )
            events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
            index += 1

        if reply.thinking is not None:
            deltas = [
                {"type": "thinking_delta", "thinking": p} for p in chunks(reply.thinking, size)
            ]
            deltas.append({"type": "signature_delta", "signature": reply.thinking_signature})
            block({"type": "thinking", "thinking": ""}, deltas)
        if reply.text is not None:
            block(
                {"type": "text", "text": ""},
                [{"type": "text_delta", "text": p} for p in chunks(reply.text, size)],
            )
        for n, call in enumerate(reply.tool_calls):
            block(
                {"type": "tool_use", "id": call.id or f"toolu_{n}", "name": call.name, "input": {}},
                [
                    {"type": "input_json_delta", "partial_json": p}
                    for p in chunks(call.args_text(), size * 3)
                ],
            )
        if reply.stream_error is not None:
            kind, message = reply.stream_error
            events.append(("error", {"type": "error", "error": {"type": kind, "message": message}}))
            return events
        output = reply.usage.output if reply.usage is not None else 0
        events.append(
            (
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": stop_reason(reply), "stop_sequence": None},
                    "usage": {"output_tokens": output},
                },
            )
        )
        events.append(("message_stop", {"type": "message_stop"}))
        return events

    def json_body(self, reply: Reply, request: Any) -> Any:
        model = reply.model or (request or {}).get("model") or self.default_model
        content: list[dict[str, Any]] = []
        if reply.thinking is not None:
            thinking = "".join(chunks(reply.thinking, reply.chunk_size))
            content.append(
                {"type": "thinking", "thinking": thinking, "signature": reply.thinking_signature}
            )
        if reply.text is not None:
            content.append({"type": "text", "text": "".join(chunks(reply.text, reply.chunk_size))})
        for n, call in enumerate(reply.tool_calls):
            arguments = json.loads(call.args_text())
            content.append(
                {
                    "type": "tool_use",
                    "id": call.id or f"toolu_{n}",
                    "name": call.name,
                    "input": arguments,
                }
            )
        output = reply.usage.output if reply.usage is not None else 0
        return {
            "id": "msg_test",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": content,
            "stop_reason": stop_reason(reply),
            "stop_sequence": None,
            "usage": self._usage(reply, output),
        }
