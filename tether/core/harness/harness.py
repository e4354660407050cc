"""The harness: binds a session, an agent and the plugins (docs/ARCHITECTURE.md).

One :class:`Harness` drives one session at a time:

- every message is appended to the session when it ends (``message_end``): user, assistant,
  tool results; ``custom`` messages become ``custom_message`` entries;
- hooks: ``input``, ``before_agent_start`` (system prompt chain + injected custom messages),
  ``prune_context`` + ``context`` (before every model call: :mod:`.pruning`), ``before_tool_call``,
  ``tool_result``, ``agent_event`` (every event), ``session_start`` / ``session_shutdown``;
- after a run: a failed call is retried as the retry policy decides (the ``retry_decision`` hook),
  a context overflow is compacted and retried once, and a context past ``window − reserve`` is
  compacted — all before :meth:`Harness.prompt` returns (:mod:`.run` decides, the harness acts);
- the system prompt is assembled again for every prompt; an offered tool may annotate the
  messages sent (``FunctionTool.annotate_context``: the ``recall`` tool names its span);
- one writer per session: the harness holds the store's lease from construction to
  :meth:`Harness.close` (a second writer: :class:`~tether.core.base.errors.SessionBusyError`;
  to wait, take ``tether.SessionLease(path).acquire(wait=…)`` first: it is re-entrant).

The harness coordinates; :mod:`.run`, :mod:`.compaction`, :mod:`.delivery`, :mod:`.switching`
(switching, tree navigation, manual compaction) depend on small protocols, never on it.

Example::

    pm = create_plugin_manager()
    with Harness(pm, Session.create(os.getcwd()), model=ModelRequest("faux/faux-1")) as h:
        result = h.prompt("list the files here")
        print(result.text)
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial
from typing import Any

from tether.core.agent.agent import Agent
from tether.core.agent.loop import user_message
from tether.core.agent.tools import annotated, collect_tools, order_tools
from tether.core.base.errors import SessionWriteError, TetherError
from tether.core.choices.running import token_counter
from tether.core.context.convert import convert_to_llm
from tether.core.harness import delivery, switching
from tether.core.harness import pruning as pruning_stage
from tether.core.harness.compaction import CompactionRunner
from tether.core.harness.context_hooks import ContextHooks
from tether.core.harness.persist import persist_message
from tether.core.harness.run import (
    MAX_CONTINUATIONS,
    CompactNow,
    Continue,
    RetryIn,
    RunController,
    RunResult,
    Step,
    Stop,
    TurnState,
    drop_trailing,
)
from tether.core.harness.setup import ModelRequest, assemble_prompt, hook_time_limit, stderr_warning
from tether.core.hooks.custom_messages import as_custom_message
from tether.core.hooks.facade import Hooks
from tether.core.hooks.plugin_session import PluginSession
from tether.hookspecs.abort import AbortSignal
from tether.hookspecs.events import (
    AgentEvent,
    BeforeAgentStartEvent,
    BeforeToolCallEvent,
    Block,
    InputEvent,
    Message,
    ToolResultEvent,
)
from tether.hookspecs.providers import Model

Listener = Callable[[AgentEvent], None]


class Harness:
    """Session + agent + plugins. Not thread-safe except :meth:`abort` (see module doc)."""

    def __init__(
        self,
        pm: Any,
        session: Any,
        *,
        settings: Any = None,
        registry: Any = None,
        model: ModelRequest | str | None = None,
        thinking: str | None = None,
        cwd: str | None = None,
        on_warning: Callable[[str], None] | None = None,
    ) -> None:
        from tether.core.base.settings import load_settings
        from tether.core.session.opening import lease_session

        self.pm = pm
        self.session = session
        self.lease: Any = None
        self.cwd = cwd or session.cwd
        self.settings = settings if settings is not None else load_settings(self.cwd)
        self.hooks = Hooks(
            pm,
            on_warning=self.warn,
            interrupt=lambda: self.op_signal,
            **hook_time_limit(self.settings),
        )
        self.on_warning = on_warning or stderr_warning
        self.warnings: list[str] = []
        self.view = PluginSession.of_harness(self)
        self.tools = order_tools(collect_tools(pm))
        self.model: Model | None = None
        self.thinking_level = "off"
        self.busy = False
        self.op_signal = AbortSignal()
        self.registry = registry or self.hooks.model_registry(self.settings)
        self.next_turn: list[Message] = []
        self._listeners: list[Listener] = []
        self.context_hooks = ContextHooks(self.hooks, self.view)
        self._event_hooked = bool(pm.hook.agent_event.get_hookimpls())
        self.agent = Agent(
            stream_fn=self._stream,
            tools=self.tools,
            convert_to_llm=self._convert_to_llm,
            transform_context=partial(
                pruning_stage.transform, self, context_hooks=self.context_hooks
            ),
            before_tool_call=self._before_tool_call,
            after_tool_call=self._after_tool_call,
            cwd=self.cwd,
            tool_settings=self.settings,
            tool_session=self.view,
            validate_arguments=self.hooks.tool_arguments_validator(),
        )
        self.agent.subscribe(self._on_agent_event)
        self.compactor = CompactionRunner(self)
        self.runs = RunController(self.hooks)
        request = model if isinstance(model, ModelRequest) else ModelRequest(ref=model)
        try:  # one writer per session; a session not on disk yet (binding
            # writes nothing to it) is leased after binding: a bad model makes no folder
            on_disk = session.file is not None and os.path.lexists(session.file)
            self.lease = lease_session(session) if on_disk else None
            switching.bind_session(self, request, thinking)
            self.lease = self.lease or lease_session(session)
        except BaseException:
            self.release_lease()
            raise
        self.started = False

    # -- lifecycle -------------------------------------------------------------------------------

    def start(self, reason: str = "startup") -> Harness:
        """Fire ``session_start`` (once)."""
        if not self.started:
            self.started = True
            self.hooks.session_start(session=self.view, reason=reason)
        return self

    def close(self, reason: str = "quit") -> None:
        """Fire ``session_shutdown``, release the HTTP clients and the session's lease."""
        try:
            if self.started:
                self.started = False
                self.hooks.session_shutdown(session=self.view, reason=reason)
            self.registry.close()
        finally:
            self.release_lease()

    def release_lease(self) -> None:
        if self.lease is not None:
            self.lease.release()
            self.lease = None

    def __enter__(self) -> Harness:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- events, warnings, hooks -----------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with every agent and harness event; returns an unsubscribe."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def warn(self, message: str) -> None:
        self.warnings.append(message)
        self.on_warning(message)

    def emit(self, event: AgentEvent) -> None:
        """Send ``event`` to the ``agent_event`` hook, then to the listeners (never raises)."""
        if self._event_hooked:
            self.hooks.agent_event(event=event, session=self.view)
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception as exc:  # a UI listener must not stop the agent
                self.warn(f"event listener failed on {event.type}: {exc}")

    def progress(self, line: str) -> None:
        """Status lines of a long operation (compaction, summaries), for the UI only."""
        for listener in list(self._listeners):
            try:
                listener(AgentEvent("progress", {"line": line}))
            except Exception:  # noqa: BLE001 - display only
                pass

    # -- agent callbacks -------------------------------------------------------------------------

    def _stream(self, model: Model | None, context: Any, options: Any) -> Any:
        if model is None:
            raise TetherError("no model selected: pass --provider/--model (try --provider faux)")
        return self.registry.stream(model, context, options)

    def _convert_to_llm(self, messages: list[Message]) -> list[Message]:
        messages = annotated(self.tools, messages, self.view)
        return convert_to_llm(messages, block_images=bool(self.settings.block_images))

    def _before_tool_call(self, event: BeforeToolCallEvent) -> Block | None:
        return self.hooks.before_tool_call(event=event, session=self.view)

    def _after_tool_call(self, event: ToolResultEvent) -> None:
        self.hooks.tool_result(event=event, session=self.view)

    def _on_agent_event(self, event: AgentEvent) -> None:
        if event.type == "message_end":
            message = event.data["message"]
            self.emit(event)
            self.persist(message)
            if message.get("role") == "assistant":
                self.runs.note_assistant(message, event.data.get("error"))
            return
        if event.type == "agent_end" and "error" in event.data:
            failure = (event.data.get("messages") or [None])[0]
            self.runs.note_failure(failure, event.data["error"])
            if failure is not None and not isinstance(event.data["error"], SessionWriteError):
                try:  # pi keeps it in memory only; tether writes what the agent has
                    self.persist(failure)
                except Exception as exc:  # noqa: BLE001 - the run already failed; report
                    self.warn(f"could not store the failure message: {exc}")
        self.emit(event)

    def persist(self, message: Message) -> None:
        """Append a finished message to the session (see :func:`.persist.persist_message`)."""
        persist_message(self.session, message, self.warn)

    # -- prompts ---------------------------------------------------------------------------------

    def prompt(
        self, text: str, images: list[dict[str, Any]] | None = None, *, source: str = "interactive"
    ) -> RunResult:
        """Run one user prompt to the end (retries and compactions included)."""
        self._claim()
        try:
            event = InputEvent(text, list(images or []), source)  # type: ignore[arg-type]
            self.hooks.input(event=event, session=self.view, failure="input hook")
            if event.handled:
                return RunResult(handled=True)
            if (step := self.runs.before_prompt(self._turn_state())) is not None:
                self.compactor.run(step.reason)
            start = BeforeAgentStartEvent(event.text, event.images, self.system_prompt())
            answers = self.hooks.before_agent_start(
                event=start, session=self.view, failure="before_agent_start"
            )
            injected = [as_custom_message(m) for m in answers]
            self.agent.state.system_prompt = start.system_prompt
            # pi's order: the prompt, then held next-turn messages, then injected ones (so a
            # fork or /tree "before" the user message drops what was injected with it)
            messages = [user_message(event.text, event.images), *self.next_turn, *injected]
            self.context_hooks.before_prompt([*self.agent.state.messages, *messages])
            self.next_turn = []
            return RunResult(self._run(messages), failure=self.runs.failure)
        finally:
            self.busy = False

    def run_messages(self, messages: list[Message]) -> RunResult:
        """Start a run with ready-made messages (pi's ``triggerTurn``: no input/start hooks)."""
        self._claim()
        try:
            if not self.agent.state.system_prompt:
                self.agent.state.system_prompt = self.system_prompt()
            return RunResult(self._run(messages), failure=self.runs.failure)
        finally:
            self.busy = False

    # -- after a run: the run controller decides, the harness acts -------------------------------

    def _run(self, messages: list[Message]) -> list[Message]:
        """Prompt the agent, then carry out retries, compactions and queued messages."""
        self.runs.start(new_prompt=True)
        produced = list(self.agent.prompt(messages))
        for _ in range(MAX_CONTINUATIONS):
            if not isinstance(self._carry_out(self.runs.after_turn(self._turn_state())), Continue):
                break
            self.runs.forget()
            produced.extend(self.agent.continue_())
        if isinstance(self.runs.failure, SessionWriteError):
            raise self.runs.failure  # a storage error, not the model's: the caller reports it
        return produced

    def _carry_out(self, step: Step) -> Step:
        """Do what ``step`` says, and what follows, until a :class:`Continue` or :class:`Stop`."""
        while True:
            for notice in step.notices:
                self.warn(notice) if isinstance(notice, str) else self.emit(notice)
            if step.drop is not None:
                drop_trailing(self.agent.state.messages, step.drop)
            if isinstance(step, RetryIn):
                if not self.op_signal.wait(step.delay_ms / 1000):
                    return Continue()
                step = self.runs.retry_cancelled(step)
            elif step.notices and self.op_signal.aborted:
                return Stop()  # aborted while the notices were announced
            elif isinstance(step, CompactNow):
                outcome = self.compactor.run(step.reason, will_retry=step.will_retry)
                step = self.runs.after_compaction(step, outcome, self._turn_state())
            else:
                return step

    def _turn_state(self) -> TurnState:
        agent = self.agent
        return TurnState(
            aborted=lambda: self.op_signal.aborted,
            model=self.model,
            messages=agent.state.messages,
            queued=agent.has_queued_messages,
            settings=self.settings,
            count=self._count,
            pruned=lambda messages: pruning_stage.preview(self, messages),
        )

    def _count(self, messages: list[Message]) -> list[int]:
        return token_counter(self.pm, self.settings, model=self.view.model)(messages)

    def _claim(self) -> None:
        if self.busy:
            raise TetherError("a prompt is already running; steer or follow up instead")
        if self.model is None:
            raise TetherError("no model selected: pass --provider/--model (try --provider faux)")
        self.busy = True
        self.op_signal = AbortSignal()

    def system_prompt(self) -> str:
        """The assembled system prompt for this run (rebuilt every time)."""
        text, found = assemble_prompt(self.pm, self.cwd, self.tools, self.settings)
        for warning in found:  # what the section plugins met (an unreadable AGENTS.md…)
            if warning not in self.warnings:
                self.warn(warning)
        return text

    def steer(self, text: str) -> None:
        self.agent.steer(text)

    def follow_up(self, text: str) -> None:
        self.agent.follow_up(text)

    def abort(self) -> None:
        """Abort the running turn, a retry wait or a compaction (safe from any thread)."""
        self.op_signal.abort()
        self.agent.abort()

    send_custom_message = delivery.send_custom_message  # pi's sendMessage
    send_user_message = delivery.send_user_message  # pi's sendUserMessage

    def reload_messages(self) -> None:
        """Agent messages := the session's context at its leaf (after compaction/navigation)."""
        self.agent.state.messages = self.session.build_context().messages

    # -- session actions: functions of a host (:mod:`.switching`), bound as methods -----------

    new_session = switching.new_session
    resume = switching.resume
    fork = switching.fork
    clone = switching.clone
    navigate = switching.navigate
    compact = switching.compact
    set_model = switching.set_model
    set_thinking_level = switching.set_thinking_level
    set_name = switching.set_name
    set_label = switching.set_label


__all__ = ["Harness", "ModelRequest", "RunResult"]
