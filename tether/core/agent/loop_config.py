"""The callbacks and settings of one agent run (:class:`LoopConfig`), shared by the loop and
the tool execution below it (neither imports the other for it: no import loop)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from tether.hookspecs.events import AgentEvent, BeforeToolCallEvent, Block, Message, ToolResultEvent
from tether.hookspecs.providers import LlmContext, Model, StreamEvent, StreamOptions

StreamFn = Callable[[LlmContext, StreamOptions], Iterable[StreamEvent]]
Emit = Callable[[AgentEvent], None]

LLM_ROLES = ("user", "assistant", "toolResult")


def default_convert_to_llm(messages: list[Message]) -> list[Message]:
    """Keep user, assistant and toolResult messages (pi-agent-core's default)."""
    return [m for m in messages if m.get("role") in LLM_ROLES]


@dataclass
class LoopConfig:
    """The callbacks and settings of one run.

    - ``stream_fn(llm_context, options)``: one model call; yields StreamEvents ending in
      ``done``/``error`` (must not raise for provider failures).
    - ``transform_context(messages)``: the ``context`` hook; returns the list to send
      (``None`` keeps the one given). Called before every model call.
    - ``convert_to_llm(messages)``: agent messages → LLM messages.
    - ``before_tool_call(event)``: may patch ``event.input``; return ``Block`` to refuse.
    - ``after_tool_call(event)``: edit the ``ToolResultEvent`` and/or return a field-wise
      patch (dict or object with content/details/is_error/terminate).
    - ``get_steering_messages()`` / ``get_follow_up_messages()``: drained queues.
    - ``should_stop_after_turn(message, tool_results)``: pi 0.73's early stop (rarely used).
    - ``get_api_key(provider)``: resolved before each call; falls back to ``api_key``.
    - ``validate_arguments(tool_name, schema, arguments)``: the arguments a tool runs with;
      raises with the text the model reads (``None``: the arguments as the model sent them).
    """

    stream_fn: StreamFn
    model: Model | None = None
    reasoning: str | None = None
    api_key: str | None = None
    get_api_key: Callable[[str], str | None] | None = None
    convert_to_llm: Callable[[list[Message]], list[Message]] = default_convert_to_llm
    transform_context: Callable[[list[Message]], list[Message] | None] | None = None
    before_tool_call: Callable[[BeforeToolCallEvent], Block | None] | None = None
    after_tool_call: Callable[[ToolResultEvent], Any] | None = None
    get_steering_messages: Callable[[], list[Message]] | None = None
    get_follow_up_messages: Callable[[], list[Message]] | None = None
    should_stop_after_turn: Callable[[Message, list[Message]], bool] | None = None
    tool_execution: Literal["parallel", "sequential"] = "parallel"
    cwd: str = "."
    tool_settings: Any = None
    tool_session: Any = None
    validate_arguments: Callable[[str, dict[str, Any], Any], Any] | None = None


__all__ = ["LLM_ROLES", "Emit", "LoopConfig", "StreamFn", "default_convert_to_llm"]
