"""State across runs (pi's ``Agent``): messages, tools, model, queues, abort, one run at a time.

Binding it (what the harness does)::

    agent = Agent(stream_fn=provider_stream, model=model, system_prompt=prompt, tools=tools,
                  convert_to_llm=convert_to_llm, transform_context=run_context_hook,
                  before_tool_call=run_before_tool_call_hook, after_tool_call=run_tool_result_hook)
    agent.state.messages = context_from_session        # load / replace the transcript
    agent.subscribe(persist_and_notify)                # every AgentEvent, in order
    agent.prompt("hello")                              # blocks; or agent.start("hello")

Runs execute in the thread that calls :meth:`prompt`/:meth:`continue_`, or in a background
thread with :meth:`start`/:meth:`start_continue`; :meth:`steer`, :meth:`follow_up`,
:meth:`abort` and :meth:`wait_for_idle` may be called from any thread. Listeners run in the
run's thread, one event at a time; an exception from a listener or callback ends the run like
any other agent-level failure: a synthetic assistant message (empty text, stopReason ``error``
— ``aborted`` if the run was aborted — and ``errorMessage``) is appended to ``state.messages``
and announced by ``agent_end {messages: [failure], error: <exception>}`` — never by
``message_end`` (pi does not persist it; the ``error`` key lets the harness decide).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from tether.core.agent.loop import (
    LoopConfig,
    LoopContext,
    failed_assistant_message,
    run_agent_loop,
    run_agent_loop_continue,
    user_message,
)
from tether.core.agent.state import AgentState, MessageQueue, QueueMode
from tether.core.agent.tool_execution import error_text
from tether.hookspecs.abort import AbortSignal
from tether.hookspecs.events import AgentEvent, Message
from tether.hookspecs.providers import LlmContext, Model, StreamEvent, StreamOptions
from tether.hookspecs.tools import Tool

Listener = Callable[[AgentEvent], None]
ModelStreamFn = Callable[[Model | None, LlmContext, StreamOptions], Iterable[StreamEvent]]

BUSY_PROMPT = (
    "Agent is already processing a prompt. Use steer() or follow_up() to queue "
    "messages, or wait for completion."
)
BUSY_CONTINUE = "Agent is already processing. Wait for completion before continuing."


class AgentBusyError(RuntimeError):
    """A run was requested while another run of the same agent is active."""


class _Run:
    def __init__(self) -> None:
        self.signal = AbortSignal()
        self.done = threading.Event()
        self.thread_id: int | None = None


class Agent:
    """Stateful wrapper around :func:`~tether.core.agent.loop.run_agent_loop` (see module doc)."""

    def __init__(
        self,
        *,
        stream_fn: ModelStreamFn,
        model: Model | None = None,
        system_prompt: str = "",
        thinking_level: str = "off",
        tools: Sequence[Tool] = (),
        messages: Sequence[Message] = (),
        steering_mode: QueueMode = "one-at-a-time",
        follow_up_mode: QueueMode = "one-at-a-time",
        **options: Any,
    ) -> None:
        """``options``: the fields of :class:`~tether.core.agent.loop_config.LoopConfig` every
        run gets as given (``convert_to_llm``, ``transform_context``, ``before_tool_call``,
        ``after_tool_call``, ``get_api_key``, ``tool_execution``, ``cwd``, ``tool_settings``,
        ``tool_session``, ``validate_arguments``…); the model, its stream and the queues are
        the agent's own."""
        self.state = AgentState(
            system_prompt=system_prompt,
            model=model,
            thinking_level=thinking_level,
            tools=tools,
            messages=messages,
        )
        self.stream_fn = stream_fn
        self.options = options
        self.steering_queue = MessageQueue(steering_mode)
        self.follow_up_queue = MessageQueue(follow_up_mode)
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()
        self._active: _Run | None = None
        self._config()  # an option that is not a LoopConfig field fails here, not in a run

    # --- listeners and queues ----------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(event)`` for every event, in subscription order; returns unsubscribe."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    # steering_mode and follow_up_mode have the same shape: one property per queue.
    @property
    def steering_mode(self) -> QueueMode:
        return self.steering_queue.mode

    @steering_mode.setter
    def steering_mode(self, mode: QueueMode) -> None:
        self.steering_queue.mode = mode

    @property
    def follow_up_mode(self) -> QueueMode:
        return self.follow_up_queue.mode

    @follow_up_mode.setter
    def follow_up_mode(self, mode: QueueMode) -> None:
        self.follow_up_queue.mode = mode

    def steer(self, message: Message | str, images: list[dict[str, Any]] | None = None) -> None:
        """Queue a message for after the current tool batch (injected before the next call)."""
        self.steering_queue.enqueue(_as_message(message, images))

    def follow_up(self, message: Message | str, images: list[dict[str, Any]] | None = None) -> None:
        """Queue a message for when the agent would otherwise stop."""
        self.follow_up_queue.enqueue(_as_message(message, images))

    def clear_steering_queue(self) -> None:
        self.steering_queue.clear()

    def clear_follow_up_queue(self) -> None:
        self.follow_up_queue.clear()

    def clear_all_queues(self) -> None:
        self.clear_steering_queue()
        self.clear_follow_up_queue()

    def has_queued_messages(self) -> bool:
        return len(self.steering_queue) > 0 or len(self.follow_up_queue) > 0

    # --- runs --------------------------------------------------------------------------------

    @property
    def is_running(self) -> bool:
        return self._active is not None

    @property
    def signal(self) -> AbortSignal | None:
        """The active run's abort signal, if a run is active."""
        run = self._active
        return run.signal if run else None

    def abort(self) -> None:
        """Abort the active run: the stream ends ``aborted``, running tools get the signal."""
        run = self._active
        if run is not None:
            run.signal.abort()

    def wait_for_idle(self, timeout: float | None = None) -> bool:
        """Block until no run is active (after ``agent_end`` listeners); False on timeout."""
        run = self._active
        if run is None:
            return True
        if run.thread_id == threading.get_ident():
            raise RuntimeError("wait_for_idle() called from inside the agent's own run")
        return run.done.wait(timeout)

    def reset(self) -> None:
        """Clear the transcript, runtime state and both queues."""
        self.state.messages = []
        self.state.is_streaming = False
        self.state.streaming_message = None
        self.state.pending_tool_calls = set()
        self.state.error_message = None
        self.clear_all_queues()

    def prompt(
        self, input: Message | str | Sequence[Message], images: list[dict[str, Any]] | None = None
    ) -> list[Message]:
        """Run on new prompt message(s), blocking; return the messages the run produced."""
        return self._launch_prompt(input, images, background=False)

    def start(
        self, input: Message | str | Sequence[Message], images: list[dict[str, Any]] | None = None
    ) -> None:
        """Like :meth:`prompt` but in a background thread; raises at once if busy."""
        self._launch_prompt(input, images, background=True)

    def continue_(self) -> list[Message]:
        """Continue from the transcript (retries, queued messages), blocking."""
        return self._launch_continue(background=False)

    def start_continue(self) -> None:
        """Like :meth:`continue_` in a background thread."""
        self._launch_continue(background=True)

    def _launch_prompt(self, input: Any, images: Any, background: bool) -> list[Message]:
        prompts = _as_messages(input, images)
        run = self._claim(BUSY_PROMPT)
        return self._start(run, lambda: self._run_prompts(run, prompts), background)

    def _launch_continue(self, background: bool) -> list[Message]:
        run = self._claim(BUSY_CONTINUE)
        try:
            work = self._continuation(run)
        except BaseException:
            self._finish(run)
            raise
        return self._start(run, work, background)

    def _continuation(self, run: _Run) -> Callable[[], list[Message]]:
        messages = self.state.messages
        if not messages:
            raise ValueError("No messages to continue from")
        if messages[-1].get("role") != "assistant":
            return lambda: run_agent_loop_continue(
                self._snapshot(), self._config(), self._dispatch, run.signal
            )
        steering = self.steering_queue.drain()
        if steering:
            return lambda: self._run_prompts(run, steering, skip_initial_steering_poll=True)
        follow_ups = self.follow_up_queue.drain()
        if follow_ups:
            return lambda: self._run_prompts(run, follow_ups)
        raise ValueError("Cannot continue from message role: assistant")

    def _run_prompts(
        self, run: _Run, prompts: list[Message], skip_initial_steering_poll: bool = False
    ) -> list[Message]:
        config = self._config(skip_initial_steering_poll)
        return run_agent_loop(prompts, self._snapshot(), config, self._dispatch, run.signal)

    def _claim(self, busy_message: str) -> _Run:
        with self._lock:
            if self._active is not None:
                raise AgentBusyError(busy_message)
            run = _Run()
            self._active = run
        self.state.is_streaming = True
        self.state.streaming_message = None
        self.state.error_message = None
        return run

    def _start(
        self, run: _Run, work: Callable[[], list[Message]], background: bool
    ) -> list[Message]:
        if not background:
            return self._execute(run, work)
        thread = threading.Thread(
            target=self._execute, args=(run, work), daemon=True, name="tether-agent-run"
        )
        thread.start()
        return []

    def _execute(self, run: _Run, work: Callable[[], list[Message]]) -> list[Message]:
        run.thread_id = threading.get_ident()
        try:
            return work()
        except Exception as error:  # noqa: BLE001 - agent-level failure, reported as pi does
            return [self._fail(run, error)]
        except KeyboardInterrupt as interrupt:
            run.signal.abort()
            self._fail(run, interrupt)
            raise
        finally:
            self._finish(run)

    def _fail(self, run: _Run, error: BaseException) -> Message:
        stop = "aborted" if run.signal.aborted else "error"
        run.signal.abort()  # tools still running in the failed run stop (pi leaves them be)
        failure = failed_assistant_message(
            self.state.model, stop, error_text(error), content=[{"type": "text", "text": ""}]
        )
        self.state.messages.append(failure)
        self.state.error_message = failure["errorMessage"]
        self._dispatch(AgentEvent("agent_end", {"messages": [failure], "error": error}))
        return failure

    def _finish(self, run: _Run) -> None:
        self.state.is_streaming = False
        self.state.streaming_message = None
        self.state.pending_tool_calls = set()
        with self._lock:
            if self._active is run:
                self._active = None
        run.done.set()

    def _snapshot(self) -> LoopContext:
        return LoopContext(
            self.state.system_prompt, list(self.state.messages), list(self.state.tools)
        )

    def _config(self, skip_initial_steering_poll: bool = False) -> LoopConfig:
        skip = [skip_initial_steering_poll]

        def steering() -> list[Message]:
            if skip[0]:
                skip[0] = False
                return []
            return self.steering_queue.drain()

        model, stream_fn = self.state.model, self.stream_fn
        level = self.state.thinking_level
        return LoopConfig(
            stream_fn=lambda context, options: stream_fn(model, context, options),
            model=model,
            reasoning=None if level in (None, "", "off") else level,
            get_steering_messages=steering,
            get_follow_up_messages=self.follow_up_queue.drain,
            **self.options,
        )

    def _dispatch(self, event: AgentEvent) -> None:
        """Update the state for ``event``, then call every listener."""
        data, state = event.data, self.state
        if event.type in ("message_start", "message_update"):
            state.streaming_message = data.get("message")
        elif event.type == "message_end":
            state.streaming_message = None
            state.messages.append(data["message"])
        elif event.type == "tool_execution_start":
            state.pending_tool_calls = state.pending_tool_calls | {data["tool_call_id"]}
        elif event.type == "tool_execution_end":
            state.pending_tool_calls = state.pending_tool_calls - {data["tool_call_id"]}
        elif event.type == "turn_end":
            message = data.get("message") or {}
            if message.get("role") == "assistant" and message.get("errorMessage"):
                state.error_message = message["errorMessage"]
        elif event.type == "agent_end":
            state.streaming_message = None
        for listener in list(self._listeners):
            listener(event)


def _as_message(message: Message | str, images: list[dict[str, Any]] | None) -> Message:
    return user_message(message, images) if isinstance(message, str) else message


def _as_messages(input: Any, images: list[dict[str, Any]] | None) -> list[Message]:
    if isinstance(input, str):
        return [user_message(input, images)]
    if isinstance(input, dict):
        return [input]
    return list(input)


__all__ = ["Agent", "AgentBusyError", "AgentState", "MessageQueue", "QueueMode"]
