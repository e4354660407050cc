"""In-process fakes for loop/agent unit tests: a scripted model function and small tools.

The scripted model stands in for a provider's ``stream`` (these tests are units of the loop);
end-to-end tests use the real OpenAI-compatible provider against the loopback server.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Iterator
from typing import Any

from tether.core.agent.tools import error_result
from tether.core.storage.ids import now_ms
from tether.hookspecs.providers import (
    AbortedError,
    LlmContext,
    Model,
    StreamEvent,
    StreamOptions,
    empty_usage,
)
from tether.hookspecs.tools import FunctionTool, Tool, ToolContext, ToolResult

MODEL = Model(provider="fake", id="fake-1", api="fake-api")

Reply = dict[str, Any] | Callable[[LlmContext, StreamOptions], Any]


def assistant(content: list[dict[str, Any]], stop: str = "stop", **extra: Any) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": content,
        "api": MODEL.api,
        "provider": MODEL.provider,
        "model": MODEL.id,
        "usage": empty_usage(),
        "stopReason": stop,
        "timestamp": now_ms(),
        **extra,
    }


def text_reply(text: str) -> dict[str, Any]:
    return assistant([{"type": "text", "text": text}])


def call(call_id: str, name: str, **arguments: Any) -> dict[str, Any]:
    return {"type": "toolCall", "id": call_id, "name": name, "arguments": arguments}


def tool_reply(*calls: dict[str, Any], text: str = "") -> dict[str, Any]:
    content = ([{"type": "text", "text": text}] if text else []) + list(calls)
    return assistant(content, stop="toolUse")


def stream_message(message: dict[str, Any]) -> Iterator[StreamEvent]:
    """Stream a finished message the way a provider does: start, one delta per block, done."""
    partial = {**message, "content": []}
    yield StreamEvent("start", partial=copy.deepcopy(partial))
    for index, block in enumerate(message["content"]):
        partial["content"].append(block)
        kind = {"text": "text_delta", "thinking": "thinking_delta"}.get(block["type"])
        delta = block.get("text", block.get("thinking", ""))
        yield StreamEvent(
            kind or "toolcall_delta",
            partial=copy.deepcopy(partial),
            delta=delta,
            content_index=index,
        )
    yield StreamEvent("done", message=message)


def slow_reply(started: threading.Event) -> Callable[[LlmContext, StreamOptions], Any]:
    """A reply that streams text until aborted, then ends like a provider: ``aborted``."""

    def reply(context: LlmContext, options: StreamOptions) -> Iterator[StreamEvent]:
        partial = assistant([{"type": "text", "text": ""}])
        yield StreamEvent("start", partial=copy.deepcopy(partial))
        signal = options.signal
        assert signal is not None
        for _ in range(2000):
            partial["content"][0]["text"] += "la "
            yield StreamEvent("text_delta", partial=copy.deepcopy(partial), delta="la ")
            started.set()
            if signal.wait(0.005):
                break
        error = AbortedError("Request was aborted")
        final = {**partial, "stopReason": "aborted", "errorMessage": str(error)}
        yield StreamEvent("error", message=final, error=error)

    return reply


class ScriptedModel:
    """Answers each model call with the next scripted reply and records what it was sent.

    A reply is an assistant message (streamed), or a function ``(context, options)`` that
    returns a message or an iterator of StreamEvents.
    """

    def __init__(self, *replies: Reply) -> None:
        self.replies = list(replies)
        self.contexts: list[LlmContext] = []
        self.options: list[StreamOptions] = []

    def __call__(self, context: LlmContext, options: StreamOptions) -> Iterator[StreamEvent]:
        self.contexts.append(copy.deepcopy(context))
        self.options.append(options)
        if not self.replies:
            raise AssertionError("the model was called more often than scripted")
        reply = self.replies.pop(0)
        if callable(reply):
            reply = reply(context, options)
        if isinstance(reply, dict):
            yield from stream_message(reply)
        else:
            yield from reply

    def for_agent(self, model: Model | None, context: LlmContext, options: StreamOptions):
        """The agent-level signature ``(model, context, options)``."""
        return self(context, options)

    @property
    def calls(self) -> int:
        return len(self.contexts)


def make_tool(
    name: str,
    run: Callable[[str, dict[str, Any], ToolContext], ToolResult],
    parameters: dict[str, Any] | None = None,
    execution_mode: str = "parallel",
) -> FunctionTool:
    schema = parameters or {"type": "object", "properties": {}}
    return FunctionTool(
        name=name,
        description=f"the {name} tool",
        parameters=schema,
        run=run,
        execution_mode=execution_mode,  # type: ignore[arg-type]
    )


def echo_tool(name: str = "echo") -> FunctionTool:
    schema = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
    return make_tool(
        name, lambda _id, args, _ctx: ToolResult.text(f"{name}:{args['text']}"), schema
    )


def types(events: list[Any]) -> list[str]:
    return [event.type for event in events]


def roles(messages: list[dict[str, Any]]) -> list[str]:
    return [message["role"] for message in messages]


def text_of(message: dict[str, Any]) -> str:
    return "".join(block.get("text", "") for block in message["content"] if block["type"] == "text")


def execute_tool(
    tool: Tool, tool_call_id: str, args: dict[str, Any], ctx: ToolContext
) -> ToolResult:
    """Run ``tool``; any exception becomes an error result carrying its message (pi's rule)."""
    try:
        result = tool.execute(tool_call_id, args, ctx)
    except Exception as exc:  # a tool may fail in any way; the model reads the message
        return error_result(str(exc) or type(exc).__name__)
    if not isinstance(result, ToolResult):
        return error_result(f"Tool {tool.name} returned {type(result).__name__}, not a ToolResult")
    return result
