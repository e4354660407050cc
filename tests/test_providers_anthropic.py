"""The ``anthropic-messages`` adapter end to end against the loopback Anthropic server."""

from __future__ import annotations

from typing import Any

from tests.servers import AnthropicServer, ToolCall, Usage
from tether.builtin_plugins.providers.anthropic.messages import AnthropicMessagesProvider
from tether.hookspecs.providers import LlmContext, Model, StreamOptions, drain

PNG = "iVBORw0KGgo="
EDIT_TOOL = {
    "name": "edit",
    "description": "Edit a file",
    "parameters": {
        "type": "object",
        "properties": {"path": {"type": "string"}, "text": {"type": "string"}},
        "required": ["path"],
        "additionalProperties": False,
    },
}


def model_for(server: AnthropicServer, **fields: Any) -> Model:
    fields.setdefault("input", ["text", "image"])
    return Model(
        provider="anthropic",
        id="claude-test",
        api="anthropic-messages",
        base_url=server.base_url,
        max_tokens=64000,
        **fields,
    )


def user(text: str, *images: str) -> dict[str, Any]:
    blocks = [{"type": "text", "text": text}]
    blocks += [{"type": "image", "data": d, "mimeType": "image/png"} for d in images]
    return {"role": "user", "content": blocks, "timestamp": 1}


def assistant(*content: dict[str, Any], stop: str = "toolUse") -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": list(content),
        "api": "anthropic-messages",
        "provider": "anthropic",
        "model": "claude-test",
        "usage": {},
        "stopReason": stop,
        "timestamp": 2,
    }


def result(call_id: str, *content: dict[str, Any], error: bool = False) -> dict[str, Any]:
    return {
        "role": "toolResult",
        "toolCallId": call_id,
        "toolName": "edit",
        "content": list(content),
        "isError": error,
        "timestamp": 3,
    }


def run(model: Model, context: LlmContext, **options: Any) -> list[Any]:
    return list(AnthropicMessagesProvider().stream(model, context, StreamOptions(**options)))


def test_request_shape(anthropic_server: AnthropicServer) -> None:
    anthropic_server.text("hi")
    run(
        model_for(anthropic_server),
        LlmContext("Be brief.", [user("hello")], [EDIT_TOOL]),
        api_key="sk-ant-test",
        max_tokens=1000,
    )
    request = anthropic_server.last_request
    assert request.path == "/v1/messages"
    assert request.headers["x-api-key"] == "sk-ant-test"
    assert request.headers["anthropic-version"] == "2023-06-01"
    assert "authorization" not in request.headers
    body = request.body
    assert body["model"] == "claude-test"
    assert body["stream"] is True
    assert body["max_tokens"] == 1000
    assert body["system"] == [
        {"type": "text", "text": "Be brief.", "cache_control": {"type": "ephemeral"}}
    ]
    assert body["messages"] == [
        {
            "role": "user",
            "content": [{"type": "text", "text": "hello", "cache_control": {"type": "ephemeral"}}],
        }
    ]
    assert body["tools"] == [
        {
            "name": "edit",
            "description": "Edit a file",
            "input_schema": {
                "type": "object",
                "properties": EDIT_TOOL["parameters"]["properties"],
                "required": ["path"],
            },
        }
    ]
    assert "thinking" not in body


def test_thinking_budget(anthropic_server: AnthropicServer) -> None:
    anthropic_server.text("a")
    anthropic_server.text("b")
    context = LlmContext("", [user("q")])
    run(model_for(anthropic_server, reasoning=True), context, reasoning="medium", max_tokens=4000)
    run(model_for(anthropic_server, reasoning=False), context, reasoning="medium")
    first, second = anthropic_server.bodies
    assert first["thinking"] == {"type": "enabled", "budget_tokens": 8192}
    assert first["max_tokens"] == 4000 + 8192
    assert "thinking" not in second and second["max_tokens"] == 32000


def test_streams_thinking_text_and_parallel_tool_use(anthropic_server: AnthropicServer) -> None:
    anthropic_server.reply(
        thinking="I should edit both files.",
        thinking_signature="EqQBCkYIBxgCKkB",
        text="Editing.",
        tool_calls=[
            ToolCall("edit", {"path": "a.py", "text": "x = 1\n"}, id="toolu_a"),
            ToolCall("edit", {"path": "b.py", "text": "y = 2\n"}, id="toolu_b"),
        ],
        usage=Usage(input=1200, output=80, cache_read=900, cache_write=300),
    )
    events = run(model_for(anthropic_server), LlmContext("", [user("edit")], [EDIT_TOOL]))
    kinds = [e.type for e in events]
    assert kinds[0] == "start" and kinds[-1] == "done"
    assert "".join(e.delta for e in events if e.type == "thinking_delta") == (
        "I should edit both files."
    )
    message = events[-1].message
    assert message["content"] == [
        {
            "type": "thinking",
            "thinking": "I should edit both files.",
            "thinkingSignature": "EqQBCkYIBxgCKkB",
        },
        {"type": "text", "text": "Editing."},
        {
            "type": "toolCall",
            "id": "toolu_a",
            "name": "edit",
            "arguments": {"path": "a.py", "text": "x = 1\n"},
        },
        {
            "type": "toolCall",
            "id": "toolu_b",
            "name": "edit",
            "arguments": {"path": "b.py", "text": "y = 2\n"},
        },
    ]
    assert message["stopReason"] == "toolUse"
    assert message["responseId"] == "msg_test"
    usage = message["usage"]
    assert (usage["input"], usage["output"], usage["cacheRead"], usage["cacheWrite"]) == (
        1200,
        80,
        900,
        300,
    )
    assert usage["totalTokens"] == 2480


def test_stop_reasons(anthropic_server: AnthropicServer) -> None:
    anthropic_server.reply(text="cut", stop="max_tokens")
    anthropic_server.reply(text="done", stop="end_turn")
    model = model_for(anthropic_server)
    assert run(model, LlmContext("", [user("q")]))[-1].message["stopReason"] == "length"
    assert run(model, LlmContext("", [user("q")]))[-1].message["stopReason"] == "stop"


def test_history_conversion(anthropic_server: AnthropicServer) -> None:
    """Signed thinking goes back as thinking, redacted as redacted_thinking, unsigned as text;
    consecutive tool results become one user message; tool-result images are image blocks."""
    anthropic_server.text("ok")
    history = [
        user("fix it", PNG),
        assistant(
            {"type": "thinking", "thinking": "plan", "thinkingSignature": "sig1"},
            {
                "type": "thinking",
                "thinking": "[Reasoning redacted]",
                "thinkingSignature": "opaque",
                "redacted": True,
            },
            {"type": "text", "text": "On it."},
            {
                "type": "toolCall",
                "id": "call|with/odd+chars",
                "name": "edit",
                "arguments": {"path": "a"},
            },
            {"type": "toolCall", "id": "toolu_2", "name": "edit", "arguments": {"path": "b"}},
        ),
        result("call|with/odd+chars", {"type": "text", "text": "edited a"}),
        result("toolu_2", {"type": "image", "data": PNG, "mimeType": "image/png"}, error=True),
    ]
    run(model_for(anthropic_server), LlmContext("", history, [EDIT_TOOL]))
    messages = anthropic_server.last_request.body["messages"]
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}
    assert messages[0] == {"role": "user", "content": [{"type": "text", "text": "fix it"}, image]}
    assert messages[1] == {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "plan", "signature": "sig1"},
            {"type": "redacted_thinking", "data": "opaque"},
            {"type": "text", "text": "On it."},
            {
                "type": "tool_use",
                "id": "call_with_odd_chars",
                "name": "edit",
                "input": {"path": "a"},
            },
            {"type": "tool_use", "id": "toolu_2", "name": "edit", "input": {"path": "b"}},
        ],
    }
    assert messages[2] == {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": "call_with_odd_chars",
                "content": "edited a",
                "is_error": False,
            },
            {
                "type": "tool_result",
                "tool_use_id": "toolu_2",
                "content": [{"type": "text", "text": "(see attached image)"}, image],
                "is_error": True,
                "cache_control": {"type": "ephemeral"},
            },
        ],
    }
    assert len(messages) == 3


def test_thinking_from_another_model_becomes_text(anthropic_server: AnthropicServer) -> None:
    anthropic_server.text("ok")
    other = {
        **assistant(
            {
                "type": "thinking",
                "thinking": "other model thought",
                "thinkingSignature": "reasoning_content",
            },
            {"type": "text", "text": "answer"},
            stop="stop",
        ),
        "api": "openai-completions",
        "provider": "local",
        "model": "qwen",
    }
    run(model_for(anthropic_server), LlmContext("", [user("a"), other, user("b")]))
    assert anthropic_server.last_request.body["messages"][1]["content"] == [
        {"type": "text", "text": "other model thought"},
        {"type": "text", "text": "answer"},
    ]


def test_redacted_thinking_streamed(anthropic_server: AnthropicServer) -> None:
    events = [
        (
            "message_start",
            {
                "type": "message_start",
                "message": {"id": "msg_1", "usage": {"input_tokens": 5, "output_tokens": 1}},
            },
        ),
        (
            "content_block_start",
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "redacted_thinking", "data": "ENC"},
            },
        ),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": "end_turn"},
                "usage": {"output_tokens": 3},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    anthropic_server.reply(events=events)
    message = run(model_for(anthropic_server), LlmContext("", [user("q")]))[-1].message
    assert message["content"] == [
        {
            "type": "thinking",
            "thinking": "[Reasoning redacted]",
            "thinkingSignature": "ENC",
            "redacted": True,
        }
    ]
    assert (message["usage"]["input"], message["usage"]["output"]) == (5, 3)


def test_non_streaming_complete(anthropic_server: AnthropicServer) -> None:
    anthropic_server.reply(
        thinking="t", thinking_signature="s", text="The summary.", usage=Usage(input=300, output=20)
    )
    message, _ = drain(
        AnthropicMessagesProvider().stream(
            model_for(anthropic_server),
            LlmContext("sys", [user("summarize")]),
            StreamOptions(api_key="k", stream=False),
        )
    )
    assert anthropic_server.last_request.body["stream"] is False
    assert anthropic_server.last_request.headers["accept"] == "application/json"
    assert message["content"] == [
        {"type": "thinking", "thinking": "t", "thinkingSignature": "s"},
        {"type": "text", "text": "The summary."},
    ]
    assert message["stopReason"] == "stop"
    assert message["usage"]["totalTokens"] == 320
