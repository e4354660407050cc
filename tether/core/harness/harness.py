"""The harness: binds a session, an agent and the plugins (docs/ARCHITECTURE.md).

One :class:`Harness` drives one session at a time:

- every message is appended to the session when it ends (``message_end``): user, assistant,
  tool results; ``custom`` messages become ``custom_message`` entries;
- hooks: ``input``, ``before_agent_start`` (system prompt chain + injected custom messages),
  ``context`` (on a deep copy, before every model call), ``before_tool_call``, ``tool_result``,
  ``agent_event`` (every event), ``session_start`` / ``session_shutdown``;
- after a run: a failed call is retried as the retry policy decides (the ``retry_decision`` hook),
  a context overflow is compacted and retried once, and a context past ``window − reserve`` is
  compacted (:mod:`.harness_compaction`) — all before :meth:`Harness.prompt` returns;
- the system prompt is assembled again for every prompt;
- one writer per session (README "Sessions"): the harness holds the session file's lease
  (:mod:`.lease`) from construction to :meth:`Harness.close`, so a second writer fails with
  :class:`~tether.core.host.errors.SessionBusyError`; to wait instead, take
  ``SessionLease(path).acquire(wait=…)`` before opening the session (it is re-entrant).

Session switching (new, resume, fork, clone), tree navigation and manual compaction live in
:class:`~tether.core.harness.switching.SessionActions`, which this class extends.

Example::

    pm = create_plugin_manager()
    with Harness(pm, Session.create(os.getcwd()), model=ModelRequest("faux/faux-1")) as h:
        result = h.prompt("list the files here")
        print(result.text)
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

from tether.core.agent.abort import AbortSignal
from tether.core.agent.agent import Agent
from tether.core.agent.loop import user_message
from tether.core.agent.providers import Model
from tether.core.agent.tools import collect_tools, order_tools
from tether.core.context.build import convert_to_llm, timestamp_ms
from tether.core.harness.compaction import CompactionRunner
from tether.core.harness.plugin_session import PluginSession
from tether.core.harness.run import RunController, RunResult
from tether.core.harness.setup import ModelRequest
from tether.core.harness.switching import SessionActions
from tether.core.harness.view import as_custom_message
from tether.core.host.errors import SessionFileError, SessionWriteError, TetherError
from tether.core.host.facade import Hooks
from tether.hookspecs.events import (
    AgentEvent,
    BeforeAgentStartEvent,
    BeforeToolCallEvent,
    Block,
    InputEvent,
    Message,
    ToolResultEvent,
)

Listener = Callable[[AgentEvent], None]
PERSISTED_ROLES = frozenset({"user", "assistant", "toolResult", "bashExecution"})


class Harness(SessionActions):
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
        from tether.core.agent.provider_registry import ProviderRegistry
        from tether.core.host.settings import load_settings
        from tether.core.storage.lease import lease_session

        self.pm = pm
        self.session = session
        self.lease: Any = None
        self.cwd = cwd or session.cwd
        self.settings = settings if settings is not None else load_settings(self.cwd)
        self.hooks = Hooks(
            pm,
            on_warning=self.warn,
            interrupt=lambda: self.op_signal,
            timeout_ms=hook_timeout_ms(self.settings),
        )
        self.registry = registry or ProviderRegistry(pm, settings=self.settings)
        self.on_warning = on_warning or _stderr_warning
        self.warnings: list[str] = []
        self.view = PluginSession.of_harness(self)
        self.tools = order_tools(collect_tools(pm))
        self.model: Model | None = None
        self.thinking_level = "off"
        self.busy = False
        self.op_signal = AbortSignal()
        self.next_turn: list[Message] = []
        self._listeners: list[Listener] = []
        self._context_hooked = bool(pm.hook.context.get_hookimpls())
        self._event_hooked = bool(pm.hook.agent_event.get_hookimpls())
        self.agent = Agent(
            stream_fn=self._stream,
            tools=self.tools,
            convert_to_llm=self._convert_to_llm,
            transform_context=self._transform_context,
            before_tool_call=self._before_tool_call,
            after_tool_call=self._after_tool_call,
            cwd=self.cwd,
            tool_settings=self.settings,
        )
        self.agent.subscribe(self._on_agent_event)
        self.compactor = CompactionRunner(self)
        self.runs = RunController(self)
        request = model if isinstance(model, ModelRequest) else ModelRequest(ref=model)
        try:  # one writer per session; a session not on disk yet (binding
            # writes nothing to it) is leased after binding: a bad model makes no folder
            on_disk = session.file is not None and os.path.lexists(session.file)
            self.lease = lease_session(session) if on_disk else None
            self.bind_session(request, thinking)
            self.lease = self.lease or lease_session(session)
        except BaseException:
            self._release_lease()
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
            self._release_lease()

    def _release_lease(self) -> None:
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
        return convert_to_llm(messages, block_images=bool(self.settings.block_images))

    def _transform_context(self, messages: list[Message]) -> list[Message] | None:
        if not self._context_hooked:
            return None
        return self.hooks.context(messages=messages, session=self.view, failure="context hook")

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
        """Append a finished message to the session (custom → ``custom_message`` entry).

        A storage failure raises :class:`SessionWriteError` (the run stops; the harness's
        caller gets it from :meth:`prompt` with the unsaved message)."""
        try:
            self._persist(message)
        except SessionWriteError:
            raise
        except (SessionFileError, OSError) as exc:
            detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            where = self.session.file or getattr(self.session, "uri", None) or "session"
            raise SessionWriteError(where, detail, [message]) from exc

    def _persist(self, message: Message) -> None:
        role = message.get("role")
        if role == "custom":
            entry_id = self.session.append_custom_message_entry(
                str(message.get("customType") or "plugin"),
                message.get("content", ""),
                bool(message.get("display", True)),
                message.get("details"),
            )
            stamp = timestamp_ms((self.session.get_entry(entry_id) or {}).get("timestamp"))
            if stamp is not None:  # the context rebuilt from the file has the entry's time
                message["timestamp"] = stamp
        elif role in PERSISTED_ROLES:
            self.session.append_message(message)
        else:
            self.warn(f"message with role {role!r} was not stored")

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
            self.runs.pre_prompt_check()
            start = BeforeAgentStartEvent(event.text, event.images, self.system_prompt())
            answers = self.hooks.before_agent_start(
                event=start, session=self.view, failure="before_agent_start"
            )
            injected = [as_custom_message(m) for m in answers]
            self.agent.state.system_prompt = start.system_prompt
            # pi's order: the prompt, then held next-turn messages, then injected ones (so a
            # fork or /tree "before" the user message drops what was injected with it)
            messages = [user_message(event.text, event.images), *self.next_turn, *injected]
            self.next_turn = []
            return RunResult(self.runs.run(lambda: self.agent.prompt(messages), new_prompt=True))
        finally:
            self.busy = False

    def run_messages(self, messages: list[Message]) -> RunResult:
        """Start a run with ready-made messages (pi's ``triggerTurn``: no input/start hooks)."""
        self._claim()
        try:
            if not self.agent.state.system_prompt:
                self.agent.state.system_prompt = self.system_prompt()
            return RunResult(self.runs.run(lambda: self.agent.prompt(messages), new_prompt=True))
        finally:
            self.busy = False

    def _claim(self) -> None:
        if self.busy:
            raise TetherError("a prompt is already running; steer or follow up instead")
        if self.model is None:
            raise TetherError("no model selected: pass --provider/--model (try --provider faux)")
        self.busy = True
        self.op_signal = AbortSignal()

    def system_prompt(self) -> str:
        """The assembled system prompt for this run (rebuilt every time)."""
        from tether.core.agent.prompt import assemble_system_prompt, build_prompt_options

        found: list[str] = []
        options = build_prompt_options(self.cwd, self.tools, settings=self.settings, warnings=found)
        text = assemble_system_prompt(self.pm, options)[0]
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

    def send_custom_message(
        self, message: Message, *, deliver_as: str | None = None, trigger_turn: bool = False
    ) -> None:
        """pi's ``sendMessage`` (see :meth:`PluginSession.send_message`)."""
        if deliver_as == "next_turn":
            self.next_turn.append(message)
        elif self.busy or self.agent.is_running:
            (self.agent.follow_up if deliver_as == "follow_up" else self.agent.steer)(message)
        elif trigger_turn:
            self.run_messages([message])
        else:
            self.agent.state.messages.append(message)
            self.emit(AgentEvent("message_start", {"message": message}))
            self.persist(message)
            self.emit(AgentEvent("message_end", {"message": message}))

    def send_user_message(self, text: str, *, deliver_as: str | None = None) -> None:
        """pi's ``sendUserMessage``: queued while busy, a full prompt while idle."""
        if self.busy or self.agent.is_running:
            (self.agent.follow_up if deliver_as == "follow_up" else self.agent.steer)(text)
        else:
            self.prompt(text, source="plugin")

    def reload_messages(self) -> None:
        """Agent messages := the session's context at its leaf (after compaction/navigation)."""
        self.agent.state.messages = self.session.build_context().messages


def hook_timeout_ms(settings: Any) -> int | None:
    """``plugins.hookTimeoutMs`` of the settings: a positive int, else ``None`` (no limit)."""
    extra = getattr(settings, "extra", None)
    value = extra("plugins").get("hookTimeoutMs") if callable(extra) else None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        return None
    return int(value)


def _stderr_warning(message: str) -> None:
    sys.stderr.write(f"tether: warning: {message}\n")


__all__ = ["Harness", "ModelRequest", "RunResult"]
