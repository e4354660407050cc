"""One agent run, stateless (pi 0.73's ``runLoop``): context in, events and new messages out.

The loop knows only the callbacks of :class:`~tether.core.agent.loop_config.LoopConfig` (in its own
module, so that :mod:`tether.core.agent.tool_execution` uses it without importing the loop). It
emits
:class:`~tether.hookspecs.events.AgentEvent` objects (``type`` + ``data`` dict, snake_case keys):

==========================  ==================================================================
``agent_start``             ``{}``
``turn_start``              ``{turn_index, timestamp}``
``message_start``           ``{message}`` (assistant: a shallow copy of the partial message)
``message_update``          ``{message, assistant_message_event}`` (the provider's StreamEvent)
``message_end``             ``{message}`` — the final object, also appended to the context;
                            assistant messages add ``error`` (the typed ProviderError or None)
``tool_execution_start``    ``{tool_call_id, tool_name, args}``
``tool_execution_update``   ``{tool_call_id, tool_name, args, partial_result}`` (a ToolResult)
``tool_execution_end``      ``{tool_call_id, tool_name, result, is_error}`` (a ToolResult)
``turn_end``                ``{turn_index, timestamp, message, tool_results}``
``agent_end``               ``{messages}`` — every message the run produced, prompts included
==========================  ==================================================================

All callbacks and ``emit`` run in the caller's thread (tools run in worker threads, see
:mod:`tether.core.agent.tool_execution`). The loop never catches exceptions from callbacks or
``emit``: they end the run and are the caller's (the :class:`~tether.core.agent.agent.Agent`'s) to
report. Abort: the provider ends its stream with an ``aborted`` message; if the signal is
already set when the next model call is due (abort during tool execution), the loop does not
call the provider and records the same ``aborted`` message pi's provider would return — so the
transcript reads, as in pi, tool results followed by an aborted assistant message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from tether.core.agent.loop_config import Emit, LoopConfig, StreamFn, default_convert_to_llm
from tether.core.agent.tool_execution import execute_tool_calls
from tether.core.storage.ids import now_ms
from tether.hookspecs.abort import AbortSignal
from tether.hookspecs.events import AgentEvent, Message
from tether.hookspecs.providers import (
    LlmContext,
    Model,
    StreamEvent,
    StreamOptions,
    empty_usage,
)
from tether.hookspecs.tools import Tool

ABORTED_TEXT = "Request was aborted"


def user_message(text: str, images: list[dict[str, Any]] | None = None) -> Message:
    """pi's user message: ``{role, content: [{type: text, text}, …images], timestamp}``."""
    content: list[dict[str, Any]] = [{"type": "text", "text": text}, *(images or [])]
    return {"role": "user", "content": content, "timestamp": now_ms()}


def failed_assistant_message(
    model: Model | None,
    stop_reason: Literal["error", "aborted"],
    error_message: str,
    content: list[dict[str, Any]] | None = None,
) -> Message:
    """An assistant message for a call that produced nothing (pi's shape, zero usage)."""
    return {
        "role": "assistant",
        "content": [] if content is None else content,
        "api": model.api if model else "unknown",
        "provider": model.provider if model else "unknown",
        "model": model.id if model else "unknown",
        "usage": empty_usage(),
        "stopReason": stop_reason,
        "errorMessage": error_message,
        "timestamp": now_ms(),
    }


@dataclass
class LoopContext:
    """What the model sees: system prompt, messages (agent messages), tools."""

    system_prompt: str
    messages: list[Message]
    tools: list[Tool] = field(default_factory=list)


def run_agent_loop(
    prompts: list[Message],
    context: LoopContext,
    config: LoopConfig,
    emit: Emit,
    signal: AbortSignal,
) -> list[Message]:
    """Start a run with new prompt messages; return the messages the run produced."""
    new_messages = list(prompts)
    current = LoopContext(context.system_prompt, [*context.messages, *prompts], context.tools)
    emit(AgentEvent("agent_start"))
    emit(AgentEvent("turn_start", {"turn_index": 0, "timestamp": now_ms()}))
    for prompt in prompts:
        emit(AgentEvent("message_start", {"message": prompt}))
        emit(AgentEvent("message_end", {"message": prompt}))
    _run(current, new_messages, config, emit, signal)
    return new_messages


def run_agent_loop_continue(
    context: LoopContext, config: LoopConfig, emit: Emit, signal: AbortSignal
) -> list[Message]:
    """Continue from the context as it is (retries); its last message must not be assistant."""
    if not context.messages:
        raise ValueError("Cannot continue: no messages in context")
    if context.messages[-1].get("role") == "assistant":
        raise ValueError("Cannot continue from message role: assistant")
    new_messages: list[Message] = []
    current = LoopContext(context.system_prompt, list(context.messages), context.tools)
    emit(AgentEvent("agent_start"))
    emit(AgentEvent("turn_start", {"turn_index": 0, "timestamp": now_ms()}))
    _run(current, new_messages, config, emit, signal)
    return new_messages


def _run(
    current: LoopContext,
    new_messages: list[Message],
    config: LoopConfig,
    emit: Emit,
    signal: AbortSignal,
) -> None:
    turn_index = 0
    first_turn = True
    pending = _poll(config.get_steering_messages)
    while True:
        has_more_tool_calls = True
        while has_more_tool_calls or pending:
            if not first_turn:
                emit(AgentEvent("turn_start", {"turn_index": turn_index, "timestamp": now_ms()}))
            first_turn = False
            for message in pending:
                emit(AgentEvent("message_start", {"message": message}))
                emit(AgentEvent("message_end", {"message": message}))
                current.messages.append(message)
                new_messages.append(message)
            pending = []
            message = stream_assistant_response(current, config, emit, signal)
            new_messages.append(message)
            if message.get("stopReason") in ("error", "aborted"):
                emit(_turn_end(turn_index, message, []))
                emit(AgentEvent("agent_end", {"messages": new_messages}))
                return
            tool_results: list[Message] = []
            has_more_tool_calls = False
            if any(block.get("type") == "toolCall" for block in message.get("content") or []):
                batch = execute_tool_calls(current.tools, message, config, signal, emit)
                tool_results = batch.messages
                has_more_tool_calls = not batch.terminate
                current.messages.extend(tool_results)
                new_messages.extend(tool_results)
            emit(_turn_end(turn_index, message, tool_results))
            turn_index += 1
            stop = config.should_stop_after_turn
            if stop is not None and stop(message, tool_results):
                emit(AgentEvent("agent_end", {"messages": new_messages}))
                return
            pending = _poll(config.get_steering_messages)
        follow_ups = _poll(config.get_follow_up_messages)
        if not follow_ups:
            break
        pending = follow_ups
    emit(AgentEvent("agent_end", {"messages": new_messages}))


def _turn_end(turn_index: int, message: Message, tool_results: list[Message]) -> AgentEvent:
    data = {"turn_index": turn_index, "timestamp": now_ms(), "message": message}
    return AgentEvent("turn_end", {**data, "tool_results": tool_results})


def _poll(source: Callable[[], list[Message]] | None) -> list[Message]:
    return list(source() or []) if source is not None else []


def stream_assistant_response(
    context: LoopContext, config: LoopConfig, emit: Emit, signal: AbortSignal
) -> Message:
    """One model call: context hook, conversion, streaming events; returns the final message."""
    if signal.aborted:
        final = failed_assistant_message(config.model, "aborted", ABORTED_TEXT)
        context.messages.append(final)
        emit(AgentEvent("message_start", {"message": dict(final)}))
        emit(AgentEvent("message_end", {"message": final, "error": None}))
        return final
    messages = list(context.messages)
    if config.transform_context is not None:
        transformed = config.transform_context(messages)
        messages = messages if transformed is None else transformed
    llm_context = LlmContext(
        system_prompt=context.system_prompt,
        messages=config.convert_to_llm(messages),
        tools=[
            {"name": t.name, "description": t.description, "parameters": t.parameters}
            for t in context.tools
        ],
    )
    api_key = config.api_key
    if config.get_api_key is not None and config.model is not None:
        api_key = config.get_api_key(config.model.provider) or api_key
    options = StreamOptions(api_key=api_key, reasoning=config.reasoning, signal=signal)
    started = False
    final: Message | None = None
    last: StreamEvent | None = None
    for event in config.stream_fn(llm_context, options):
        last = event
        if event.type in ("done", "error"):
            final = event.message or _final_from_partial(event.partial, config.model, signal)
            break
        if event.partial is None:
            continue
        if not started:
            started = True
            emit(AgentEvent("message_start", {"message": dict(event.partial)}))
            if event.type == "start":
                continue
        emit(
            AgentEvent(
                "message_update", {"message": dict(event.partial), "assistant_message_event": event}
            )
        )
    if final is None:  # the stream stopped without a final event
        final = _final_from_partial(last.partial if last else None, config.model, signal)
    context.messages.append(final)
    if not started:
        emit(AgentEvent("message_start", {"message": dict(final)}))
    error = last.error if last is not None and last.type == "error" else None
    emit(AgentEvent("message_end", {"message": final, "error": error}))
    return final


def _final_from_partial(
    partial: Message | None, model: Model | None, signal: AbortSignal
) -> Message:
    stop: Literal["error", "aborted"] = "aborted" if signal.aborted else "error"
    text = ABORTED_TEXT if signal.aborted else "Provider stream ended without a final message"
    content = list(partial.get("content") or []) if partial else []
    return failed_assistant_message(model, stop, text, content)


__all__ = [
    "ABORTED_TEXT",
    "Emit",
    "LoopConfig",
    "LoopContext",
    "StreamFn",
    "default_convert_to_llm",
    "failed_assistant_message",
    "run_agent_loop",
    "run_agent_loop_continue",
    "stream_assistant_response",
    "user_message",
]
