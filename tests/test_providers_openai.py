"""The ``openai-completions`` adapter end to end against the loopback OpenAI server."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tests.servers import OpenAIServer, ToolCall, Usage
from tether.builtin_plugins.providers.http.sse import parse_partial_json
from tether.builtin_plugins.providers.openai.completions import OpenAICompletionsProvider
from tether.hookspecs.providers import LlmContext, Model, StreamOptions, drain

PNG = "iVBORw0KGgo="
READ_TOOL = {
    "name": "read",
    "description": "Read a file",
    "parameters": {
        "type": "object",
        "properties": {"path": {"type": "string"}},
        "required": ["path"],
    },
}


def model_for(server: OpenAIServer, **fields: Any) -> Model:
    return Model(
        provider="local",
        id="test-model",
        api="openai-completions",
        base_url=server.base_url,
        **fields,
    )


def user(text: str, *images: str) -> dict[str, Any]:
    blocks = [{"type": "text", "text": text}]
    blocks += [{"type": "image", "data": d, "mimeType": "image/png"} for d in images]
    return {"role": "user", "content": blocks, "timestamp": 1}


def run(model: Model, context: LlmContext, **options: Any) -> list[Any]:
    return list(OpenAICompletionsProvider().stream(model, context, StreamOptions(**options)))


def test_request_shape(openai_server: OpenAIServer) -> None:
    openai_server.text("hi")
    context = LlmContext("You are terse.", [user("hello")], [READ_TOOL])
    run(model_for(openai_server), context, api_key="sk-test", max_tokens=321)
    request = openai_server.last_request
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == "Bearer sk-test"
    body = request.body
    assert body["model"] == "test-model"
    assert body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}
    assert body["max_completion_tokens"] == 321 and "max_tokens" not in body  # pi's default
    assert body["store"] is False
    assert body["messages"] == [
        {"role": "system", "content": "You are terse."},
        {"role": "user", "content": "hello"},
    ]
    assert body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "read",
                "description": "Read a file",
                "parameters": READ_TOOL["parameters"],
            },
        }
    ]
    assert "reasoning_effort" not in body


def test_streams_text_thinking_and_parallel_tool_calls(openai_server: OpenAIServer) -> None:
    openai_server.reply(
        thinking="Let me look at both files.",
        text="Reading them now.",
        tool_calls=[
            ToolCall("read", {"path": "a.txt"}, id="call_a"),
            ToolCall("read", {"path": "dir/b.txt", "offset": 10}, id="call_b"),
        ],
        usage=Usage(input=40, output=40, cache_read=60),  # the server sends prompt_tokens=100
        model="test-model-2025-01-01",
    )
    events = run(model_for(openai_server), LlmContext("", [user("read a and b")], [READ_TOOL]))
    kinds = [e.type for e in events]
    assert kinds[0] == "start" and kinds[-1] == "done"
    assert {"thinking_delta", "text_delta", "toolcall_delta"} <= set(kinds)
    deltas = "".join(e.delta for e in events if e.type == "text_delta")
    assert deltas == "Reading them now."
    message = events[-1].message
    assert message["content"] == [
        {
            "type": "thinking",
            "thinking": "Let me look at both files.",
            "thinkingSignature": "reasoning_content",
        },
        {"type": "text", "text": "Reading them now."},
        {"type": "toolCall", "id": "call_a", "name": "read", "arguments": {"path": "a.txt"}},
        {
            "type": "toolCall",
            "id": "call_b",
            "name": "read",
            "arguments": {"path": "dir/b.txt", "offset": 10},
        },
    ]
    assert message["stopReason"] == "toolUse"
    assert message["usage"] == {
        "input": 40,  # prompt 100 + cached 60 were sent; pi counts cache hits apart
        "output": 40,
        "cacheRead": 60,
        "cacheWrite": 0,
        "totalTokens": 140,
        "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0},
    }
    assert message["responseModel"] == "test-model-2025-01-01"
    assert list(message) == [
        "role",
        "content",
        "api",
        "provider",
        "model",
        "responseModel",
        "responseId",
        "usage",
        "stopReason",
        "timestamp",
    ]
    assert (message["api"], message["provider"], message["model"]) == (
        "openai-completions",
        "local",
        "test-model",
    )


@pytest.mark.parametrize("field", ["reasoning", "reasoning_text"])
def test_reasoning_field_variants(openai_server: OpenAIServer, field: str) -> None:
    openai_server.reply(thinking="thought", text="answer", reasoning_field=field)
    message = run(model_for(openai_server), LlmContext("", [user("q")]))[-1].message
    assert message["content"][0] == {
        "type": "thinking",
        "thinking": "thought",
        "thinkingSignature": field,
    }


def test_usage_with_cache_writes_and_prices(openai_server: OpenAIServer) -> None:
    openai_server.reply(
        text="ok", usage=Usage(input=1000, output=500, cache_read=200, cache_write=300)
    )
    model = model_for(
        openai_server, cost={"input": 2, "output": 10, "cacheRead": 1, "cacheWrite": 4}
    )
    usage = run(model, LlmContext("", [user("q")]))[-1].message["usage"]
    assert (usage["input"], usage["cacheRead"], usage["cacheWrite"]) == (1000, 200, 300)
    assert usage["totalTokens"] == 2000
    assert usage["cost"]["input"] == pytest.approx(0.002)
    assert usage["cost"]["output"] == pytest.approx(0.005)
    assert usage["cost"]["total"] == pytest.approx(0.002 + 0.005 + 0.0002 + 0.0012)


def test_reasoning_effort_only_for_reasoning_models(openai_server: OpenAIServer) -> None:
    openai_server.text("a")
    openai_server.text("b")
    context = LlmContext("", [user("q")])
    run(model_for(openai_server, reasoning=True), context, reasoning="xhigh")
    run(model_for(openai_server, reasoning=False), context, reasoning="high")
    first, second = openai_server.bodies
    assert first["reasoning_effort"] == "high"
    assert "reasoning_effort" not in second


def test_history_tool_results_and_images(openai_server: OpenAIServer) -> None:
    """Tool results go back as ``tool`` messages; their images follow in a user message."""
    openai_server.text("done")
    history = [
        user("look at this", PNG),
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "hm", "thinkingSignature": "reasoning_content"},
                {"type": "text", "text": "Reading."},
                {"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "x.png"}},
            ],
            "api": "openai-completions",
            "provider": "local",
            "model": "test-model",
            "usage": {},
            "stopReason": "toolUse",
            "timestamp": 2,
        },
        {
            "role": "toolResult",
            "toolCallId": "c1",
            "toolName": "read",
            "isError": False,
            "content": [
                {"type": "text", "text": "Read image"},
                {"type": "image", "data": PNG, "mimeType": "image/png"},
            ],
            "timestamp": 3,
        },
    ]
    run(model_for(openai_server, input=["text", "image"]), LlmContext("", history, [READ_TOOL]))
    messages = openai_server.last_request.body["messages"]
    assert messages[0] == {
        "role": "user",
        "content": [
            {"type": "text", "text": "look at this"},
            {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}},
        ],
    }
    assert messages[1] == {
        "role": "assistant",
        "content": "Reading.",
        "reasoning_content": "hm",
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "read", "arguments": json.dumps({"path": "x.png"})},
            }
        ],
    }
    assert messages[2] == {"role": "tool", "content": "Read image", "tool_call_id": "c1"}
    assert messages[3] == {
        "role": "user",
        "content": [
            {"type": "text", "text": "Attached image(s) from tool result:"},
            {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}},
        ],
    }


def test_text_only_model_gets_image_placeholders(openai_server: OpenAIServer) -> None:
    openai_server.text("ok")
    run(model_for(openai_server, input=["text"]), LlmContext("", [user("see", PNG)]))
    assert openai_server.last_request.body["messages"][0] == {
        "role": "user",
        "content": [
            {"type": "text", "text": "see"},
            {"type": "text", "text": "(image omitted: model does not support images)"},
        ],
    }


def test_failed_turns_dropped_and_orphan_tool_calls_answered(openai_server: OpenAIServer) -> None:
    """pi's provider-side repair runs inside the adapter (session files contain both)."""
    openai_server.text("ok")
    base = {
        "api": "openai-completions",
        "provider": "local",
        "model": "test-model",
        "usage": {},
        "timestamp": 2,
    }
    history = [
        user("first"),
        {
            **base,
            "role": "assistant",
            "stopReason": "error",
            "errorMessage": "boom",
            "content": [{"type": "text", "text": "partial"}],
        },
        {
            **base,
            "role": "assistant",
            "stopReason": "toolUse",
            "content": [{"type": "toolCall", "id": "c9", "name": "read", "arguments": {}}],
        },
        user("second"),
    ]
    run(model_for(openai_server), LlmContext("", history))
    roles = [(m["role"], m.get("content")) for m in openai_server.last_request.body["messages"]]
    assert roles == [
        ("user", "first"),
        ("assistant", None),
        ("tool", "No result provided"),
        ("user", "second"),
    ]


def test_non_streaming_complete(openai_server: OpenAIServer) -> None:
    openai_server.reply(
        thinking="brief thought",
        text="Summary text.",
        tool_calls=[ToolCall("read", {"path": "a"})],
        usage=Usage(input=50, output=7),
    )
    message, _ = drain(
        OpenAICompletionsProvider().stream(
            model_for(openai_server),
            LlmContext("sys", [user("summarize")]),
            StreamOptions(api_key="k", stream=False),
        )
    )
    assert openai_server.last_request.body["stream"] is False
    assert "stream_options" not in openai_server.last_request.body
    assert message["content"] == [
        {"type": "thinking", "thinking": "brief thought", "thinkingSignature": "reasoning_content"},
        {"type": "text", "text": "Summary text."},
        {"type": "toolCall", "id": "call_0", "name": "read", "arguments": {"path": "a"}},
    ]
    assert message["stopReason"] == "toolUse"
    assert message["usage"]["input"] == 50 and message["usage"]["totalTokens"] == 57


def test_stream_without_ids_or_usage(openai_server: OpenAIServer) -> None:
    """Some local servers omit tool-call ids and usage: ids are generated, usage stays 0."""
    chunk = {"id": "x", "model": "test-model", "choices": []}
    events = [
        (
            None,
            {
                **chunk,
                "choices": [
                    {
                        "index": 0,
                        "delta": {
                            "tool_calls": [
                                {"index": 0, "function": {"name": "read", "arguments": '{"pa'}}
                            ]
                        },
                    }
                ],
            },
        ),
        (
            None,
            {
                **chunk,
                "choices": [
                    {
                        "index": 0,
                        "delta": {
                            "tool_calls": [{"index": 0, "function": {"arguments": 'th": "q"}'}}]
                        },
                    }
                ],
            },
        ),
        (None, {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
    ]
    openai_server.reply(events=events)
    message, error = drain(
        OpenAICompletionsProvider().stream(
            model_for(openai_server), LlmContext("", [user("q")]), StreamOptions()
        )
    )
    assert error is None
    call = message["content"][0]
    assert call["name"] == "read" and call["arguments"] == {"path": "q"}
    assert call["id"].startswith("call_")
    assert message["usage"]["totalTokens"] == 0


def test_request_shape_with_mock_transport() -> None:
    """Unit check of headers and compat options without a server."""
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        body = {"choices": [{"message": {"content": "ok"}, "finish_reason": "stop"}]}
        return httpx.Response(200, json=body)

    model = Model(
        provider="openrouter",
        id="vendor/model",
        api="openai-completions",
        base_url="https://openrouter.ai/api/v1/",
        reasoning=True,
        headers={"X-Title": "tether"},
        extra={"compat": {"maxTokensField": "max_completion_tokens"}},
    )
    client = httpx.Client(transport=httpx.MockTransport(handler))
    options = StreamOptions(
        api_key="or-key",
        reasoning="low",
        client=client,
        headers={"X-Extra": "1"},
        temperature=0.2,
        stream=False,
    )
    message, _ = drain(
        OpenAICompletionsProvider().stream(model, LlmContext("", [user("q")]), options)
    )
    assert message["content"] == [{"type": "text", "text": "ok"}]
    request = seen[0]
    assert str(request.url) == "https://openrouter.ai/api/v1/chat/completions"
    assert request.headers["x-title"] == "tether" and request.headers["x-extra"] == "1"
    assert request.headers["authorization"] == "Bearer or-key"
    body = json.loads(request.content)
    assert body["max_completion_tokens"] == 16384 and "max_tokens" not in body
    assert body["reasoning"] == {"effort": "low"} and "reasoning_effort" not in body
    assert body["temperature"] == 0.2


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"path": "a.txt"}', {"path": "a.txt"}),
        ('{"pa', {}),
        ('{"path": "a.t', {"path": "a.t"}),
        ('{"a": 1, "b": [1, 2', {"a": 1, "b": [1, 2]}),
        ('{"a": 1, "b', {"a": 1}),
        ('{"a": "x\\', {"a": "x"}),
        ("", {}),
        ("[1, 2]", {}),
        ("not json", {}),
    ],
)
def test_partial_tool_arguments(text: str, expected: dict[str, Any]) -> None:
    assert parse_partial_json(text) == expected


def test_partial_arguments_visible_while_streaming(openai_server: OpenAIServer) -> None:
    openai_server.reply(tool_calls=[ToolCall("write", {"path": "notes.md", "content": "x" * 60})])
    provider, model = OpenAICompletionsProvider(), model_for(openai_server)
    partials = []  # snapshots: ``partial`` is the live message
    for event in provider.stream(model, LlmContext("", [user("write")]), StreamOptions()):
        if event.type == "toolcall_delta":
            partials.append(dict(event.partial["content"][event.content_index]["arguments"]))
    assert partials[0] == {}
    assert {"path": "notes.md"} in partials
    assert any(p.get("path") == "notes.md" and 0 < len(p.get("content", "")) < 60 for p in partials)
    assert partials[-1] == {"path": "notes.md", "content": "x" * 60}


def test_server_answering_json_to_a_stream_request(openai_server: OpenAIServer) -> None:
    """Some OpenAI-compatible servers ignore ``stream: true``: the JSON answer is used."""
    body = {
        "choices": [{"message": {"content": "plain"}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 3, "completion_tokens": 1},
    }
    openai_server.reply(
        raw_body=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    events = run(model_for(openai_server), LlmContext("", [user("q")]))
    assert [e.type for e in events] == ["start", "done"]
    assert events[-1].message["content"] == [{"type": "text", "text": "plain"}]
    assert events[-1].message["usage"]["totalTokens"] == 4


def test_stream_option_false_sends_one_request_without_sse(openai_server: OpenAIServer) -> None:
    openai_server.text("whole")
    events = run(model_for(openai_server), LlmContext("", [user("q")]), stream=False)
    assert openai_server.last_request.body["stream"] is False
    assert events[-1].type == "done"
    assert events[-1].message["content"] == [{"type": "text", "text": "whole"}]


def test_parallel_calls_sharing_an_index(openai_server: OpenAIServer) -> None:
    """Some gateways send every parallel call with ``index: 0``; ids tell them apart."""
    chunk = {"id": "x", "model": "test-model"}

    def call(call_id: str, name: str, args: str) -> Any:
        tool = {"index": 0, "id": call_id, "function": {"name": name, "arguments": args}}
        return (None, {**chunk, "choices": [{"index": 0, "delta": {"tool_calls": [tool]}}]})

    finish = (
        None,
        {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
    )
    openai_server.reply(
        events=[call("a", "read", '{"path": "1"}'), call("b", "read", '{"path": "2"}'), finish]
    )
    message = run(model_for(openai_server), LlmContext("", [user("q")]))[-1].message
    assert [(c["id"], c["arguments"]) for c in message["content"]] == [
        ("a", {"path": "1"}),
        ("b", {"path": "2"}),
    ]
