"""Execute one assistant message's tool calls (pi 0.73's tool batch).

Preflight runs in the loop's thread, in source order: ``tool_execution_start``; find the tool
(``Tool <name> not found``); validate and coerce the arguments; ``before_tool_call`` (a
:class:`~tether.hookspecs.events.Block` refuses). Tools then run in worker threads — all at
once in parallel mode, one by one in sequential mode (chosen when the loop asks for it or any
called tool declares ``execution_mode = "sequential"``). ``after_tool_call`` and every event are
handled back in the loop's thread, so listeners and hooks never run concurrently.
``tool_execution_end`` comes in completion order; tool-result messages in source order.
"""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass
from typing import Any

from tether.core.agent.loop_config import Emit, LoopConfig
from tether.core.agent.tools import error_result
from tether.hookspecs.abort import AbortSignal
from tether.hookspecs.events import AgentEvent, BeforeToolCallEvent, Message, ToolResultEvent
from tether.hookspecs.tools import Tool, ToolContext, ToolResult


@dataclass
class _Finalized:
    call: dict[str, Any]
    result: ToolResult
    is_error: bool


@dataclass
class _Prepared:
    index: int
    call: dict[str, Any]
    tool: Tool
    args: dict[str, Any]


@dataclass
class ToolBatch:
    """The tool-result messages of a batch (source order) and whether every result terminates."""

    messages: list[Message]
    terminate: bool


def error_text(error: BaseException) -> str:
    """pi's ``error.message``: the exception text, or its class name when it has none."""
    return str(error) or type(error).__name__


def tool_result_message(call: dict[str, Any], result: ToolResult, is_error: bool) -> Message:
    """pi's tool result message; ``details`` is left out when there are none (as pi writes it)."""
    message: Message = {
        "role": "toolResult",
        "toolCallId": call.get("id"),
        "toolName": call.get("name"),
        "content": result.content,
    }
    if result.details is not None:
        message["details"] = result.details
    message["isError"] = is_error
    message["timestamp"] = int(time.time() * 1000)
    return message


def execute_tool_calls(
    tools: list[Tool],
    assistant_message: Message,
    config: LoopConfig,
    signal: AbortSignal,
    emit: Emit,
) -> ToolBatch:
    """Run the tool calls of ``assistant_message``; emit events; return the result messages."""
    calls = [c for c in assistant_message.get("content") or [] if c.get("type") == "toolCall"]
    by_name = {tool.name: tool for tool in tools}
    sequential = config.tool_execution == "sequential" or any(
        getattr(by_name.get(c.get("name")), "execution_mode", "parallel") == "sequential"
        for c in calls
    )
    runner = _BatchRunner(config, signal, emit)
    finalized: list[_Finalized | None] = [None] * len(calls)
    messages: list[Message] = []
    prepared: list[_Prepared] = []
    for index, call in enumerate(calls):
        emit(_event("tool_execution_start", call))
        step = _prepare(index, call, by_name, config)
        if isinstance(step, _Prepared):
            if not sequential:
                prepared.append(step)
                continue
            runner.start(step)
            runner.pump(finalized)
        else:
            finalized[index] = step
            emit(_end_event(step))
        if sequential:
            done = finalized[index]
            assert done is not None
            messages.append(_emit_result_message(done, emit))
    if not sequential:
        for step in prepared:
            runner.start(step)
        runner.pump(finalized)
        messages = [_emit_result_message(done, emit) for done in finalized if done is not None]
    terminate = bool(finalized) and all(d is not None and d.result.terminate for d in finalized)
    return ToolBatch(messages, terminate)


def _event(kind: str, call: dict[str, Any], **extra: Any) -> AgentEvent:
    data = {
        "tool_call_id": call.get("id"),
        "tool_name": call.get("name"),
        "args": call.get("arguments"),
    }
    return AgentEvent(kind, {**data, **extra})


def _end_event(done: _Finalized) -> AgentEvent:
    return AgentEvent(
        "tool_execution_end",
        {
            "tool_call_id": done.call.get("id"),
            "tool_name": done.call.get("name"),
            "result": done.result,
            "is_error": done.is_error,
        },
    )


def _emit_result_message(done: _Finalized, emit: Emit) -> Message:
    message = tool_result_message(done.call, done.result, done.is_error)
    emit(AgentEvent("message_start", {"message": message}))
    emit(AgentEvent("message_end", {"message": message}))
    return message


def _prepare(
    index: int, call: dict[str, Any], by_name: dict[str, Tool], config: LoopConfig
) -> _Prepared | _Finalized:
    name = call.get("name")
    tool = by_name.get(name) if isinstance(name, str) else None
    if tool is None:
        return _Finalized(call, error_result(f"Tool {name} not found"), True)
    try:
        raw_args = call.get("arguments")
        prepare_arguments = getattr(tool, "prepare_arguments", None)
        if callable(prepare_arguments):
            raw_args = prepare_arguments(raw_args)
        args = raw_args
        if config.validate_arguments is not None:
            args = config.validate_arguments(tool.name, tool.parameters, raw_args)
        if config.before_tool_call is not None:
            event = BeforeToolCallEvent(
                tool_call_id=call.get("id") or "", tool_name=tool.name, input=args
            )
            verdict = config.before_tool_call(event)
            if verdict is not None and hasattr(verdict, "reason"):
                reason = verdict.reason or "Tool execution was blocked"
                return _Finalized(call, error_result(reason), True)
            args = event.input
        return _Prepared(index, call, tool, args)
    except Exception as error:  # noqa: BLE001 - pi: any preflight failure is the tool's result
        return _Finalized(call, error_result(error_text(error)), True)


def _finalize(
    step: _Prepared, result: ToolResult, is_error: bool, config: LoopConfig
) -> _Finalized:
    """Apply ``after_tool_call``: it edits the event in place and/or returns a field-wise patch
    (a dict or object with any of ``content``, ``details``, ``is_error``, ``terminate``;
    ``None`` keeps the current value, no deep merge — pi's ``tool_result``)."""
    if config.after_tool_call is None:
        return _Finalized(step.call, result, is_error)
    try:
        event = ToolResultEvent(
            tool_call_id=step.call.get("id") or "",
            tool_name=step.tool.name,
            input=step.args,
            content=result.content,
            details=result.details,
            is_error=is_error,
            terminate=result.terminate,
        )
        patch = config.after_tool_call(event)
        if patch is not None:
            for name in ("content", "details", "is_error", "terminate"):
                value = patch.get(name) if isinstance(patch, dict) else getattr(patch, name, None)
                if value is not None:
                    setattr(event, name, value)
        final = ToolResult(
            event.content,
            details=event.details,
            is_error=bool(event.is_error),
            terminate=bool(event.terminate),
        )
        return _Finalized(step.call, final, final.is_error)
    except Exception as error:  # noqa: BLE001 - pi: a failing after-hook is an error result
        return _Finalized(step.call, error_result(error_text(error)), True)


class _BatchRunner:
    """Runs prepared calls in worker threads; forwards their updates and results to the loop."""

    def __init__(self, config: LoopConfig, signal: AbortSignal, emit: Emit) -> None:
        self.config, self.signal, self.emit = config, signal, emit
        self.outbox: queue.Queue[tuple[str, _Prepared, Any]] = queue.Queue()
        self.running = 0

    def start(self, step: _Prepared) -> None:
        self.running += 1
        worker = threading.Thread(
            target=self._work,
            args=(step,),
            daemon=True,
            name=f"tether-tool-{step.call.get('name')}",
        )
        worker.start()

    def _work(self, step: _Prepared) -> None:
        def on_update(partial: ToolResult) -> None:
            self.outbox.put(("update", step, partial))

        ctx = ToolContext(
            cwd=self.config.cwd,
            signal=self.signal,
            on_update=on_update,
            settings=self.config.tool_settings,
            session=self.config.tool_session,
        )
        try:
            result = _as_tool_result(step.tool.execute(step.call.get("id") or "", step.args, ctx))
            outcome = (result, result.is_error)
        except BaseException as error:  # noqa: BLE001 - a tool's failure is its result
            outcome = (error_result(error_text(error)), True)
        self.outbox.put(("done", step, outcome))

    def pump(self, finalized: list[_Finalized | None]) -> None:
        """Emit updates and finish calls (after-hook, ``tool_execution_end``) until none runs."""
        while self.running:
            kind, step, payload = self.outbox.get()
            if kind == "update":
                if finalized[step.index] is None:
                    self.emit(
                        _event(
                            "tool_execution_update",
                            step.call,
                            partial_result=_as_tool_result(payload),
                        )
                    )
                continue
            self.running -= 1
            result, is_error = payload
            done = _finalize(step, result, is_error, self.config)
            finalized[step.index] = done
            self.emit(_end_event(done))


def _as_tool_result(value: Any) -> ToolResult:
    """Accept a :class:`ToolResult` or a pi-shaped dict ``{content, details, terminate}``."""
    if isinstance(value, ToolResult):
        return value
    if isinstance(value, dict):
        return ToolResult(
            list(value.get("content") or []),
            details=value.get("details"),
            is_error=bool(value.get("isError", value.get("is_error", False))),
            terminate=bool(value.get("terminate", False)),
        )
    raise TypeError(f"tool returned {type(value).__name__}, expected ToolResult")


__all__ = ["ToolBatch", "error_text", "execute_tool_calls", "tool_result_message"]
