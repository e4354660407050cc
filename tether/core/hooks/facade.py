"""The one way the kernel calls hooks: a typed facade with a method per hook (as tox does).

Every method takes the hook's arguments by keyword and returns the hook's type. Every
failure is a :class:`~tether.core.base.errors.HookError` naming the plugin and the hook; an answer
of the wrong type is such a failure too (never a silent "no answer"). Per hook:

- chain and single-answer hooks (``input``, ``before_agent_start``, ``prune_context``,
  ``context``, ``session_before_*``, ``open_store``, ``http_client``, ``model_registry`` and
  the other built-ins' ``firstresult`` hooks): a failure raises; ``failure=`` prefixes what
  did not happen; ``retry_decision``: a failure is a refusal to retry, named;
- ``before_tool_call``: a failure is one warning line and *blocks* the call (a guard that
  breaks must not let the call through); the model reads the reason;
- ``tool_result``: a failure is one warning line and that plugin's step is skipped (the
  result stays as the tool and earlier plugins left it);
- notify hooks (``agent_event``, ``session_start``/``shutdown``, ``session_compact``,
  ``session_tree``): a failure is a warning, never an error;
- ``register_*``: a failing plugin is named and only its registrations are dropped.

``session`` is always a :class:`tether.hookspecs.session_protocol.HookSession`; passing
``None`` gives plugins a session with nothing in it (actions raise ``NoAgentError``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar, Unpack

from tether.core.base.errors import HookError, HookStillRunning
from tether.core.hooks.checks import (
    check_before_agent_start,
    check_context,
    check_retry_decision,
    expect,
    expect_none,
    expect_pins,
)
from tether.core.hooks.declared import first_answer, notify
from tether.core.hooks.registration_calls import NO_MODEL_REGISTRY, RegistrationCalls
from tether.core.hooks.runner import HookRunner, RunnerOptions, attributed
from tether.core.host.calls import implementations

if TYPE_CHECKING:
    from tether.core.host.manager import PluginManager
    from tether.hookspecs.events import (
        AgentEvent,
        BeforeAgentStartEvent,
        BeforeCompactEvent,
        BeforeForkEvent,
        BeforeToolCallEvent,
        BeforeTreeEvent,
        Block,
        Cancel,
        CompactEvent,
        CustomBranchSummary,
        CustomCompaction,
        InputEvent,
        Message,
        PrunedContext,
        RetryDecision,
        ToolResultEvent,
        TreeEvent,
    )
    from tether.hookspecs.gate import GateVerdict, SummaryCheck
    from tether.hookspecs.pins import Pins
    from tether.hookspecs.session_protocol import HookSession


NO_RETRY_POLICY = "no plugin decided on retries (is 'retry_policy' disabled?)"
P = ParamSpec("P")
R = TypeVar("R")


class Hooks(RegistrationCalls):
    """Wraps one plugin manager; each method calls the hook of the same name.

    ``on_warning`` receives the warning lines (default: the plugin manager's stderr line);
    ``interrupt`` returns the abort signal of the running turn (Ctrl-C ends a hook call);
    ``timeout_ms`` is the per-call time limit of third-party implementations (``None``: off)
    of the hooks in ``limited`` (``None``: every hook).
    """

    def __init__(self, pm: PluginManager, **options: Unpack[RunnerOptions]) -> None:
        self.pm = pm
        self.runner = HookRunner(pm, **options)

    def _session(self, session: HookSession | None) -> HookSession:
        if session is not None:
            return session
        from tether.core.hooks.plugin_session import PluginSession

        return PluginSession.reading(None, self)

    def _first(self, name: str, failure: str | None, answer_check: Any, **kwargs: Any) -> Any:
        try:
            return self.runner.first(name, kwargs, answer_check)
        except Exception as exc:
            error = _said_as(exc, failure)
            if error is exc:
                raise
            raise error from exc

    def _chain(self, name: str, failure: str | None, check: Any, **kwargs: Any) -> list[Any]:
        try:
            return [value for _plugin, value in self.runner.each(name, kwargs, check)]
        except Exception as exc:
            error = _said_as(exc, failure)
            if error is exc:
                raise
            raise error from exc

    def _notify(self, name: str, warnings: list[str] | None, **kwargs: Any) -> None:
        if not self.runner.hooked(name):
            return
        for plugin, impl in implementations(self.pm, name):
            try:
                self.runner.call(name, plugin, impl, kwargs)
            except Exception as exc:  # a notify hook never stops what it observes
                failure = attributed(exc)
                if failure is None:
                    raise
                if isinstance(failure, HookStillRunning):  # said when it was abandoned
                    continue
                if warnings is not None:
                    warnings.append(str(failure))
                else:
                    self.runner.warn(str(failure))

    # One typed method per hook is the facade's design, so each call site is checked; a method
    # that only hands its arguments on is declared by its signature (core/hooks/declared.py),
    # or the call names the hookspec itself (``first``, ``every``): the spec's signature is
    # the call's, and ``failure`` is given before the hook's arguments.

    def first(
        self, hook: Callable[P, R], *answers: type, failure: str | None = None
    ) -> Callable[P, R]:
        """A call of the hookspec ``hook`` (its arguments by keyword): the first answer that is
        not ``None``, one of ``answers`` (else an error naming the plugin); a failure raises,
        prefixed with ``failure``."""
        return functools.partial(self._first, hook.__name__, failure, expect(*answers))

    def every(
        self, hook: Callable[P, R | None], *answers: type, failure: str | None = None
    ) -> Callable[P, list[R]]:
        """A call of the hookspec ``hook`` (its arguments by keyword): every plugin's answer,
        in call order, each one of ``answers``; empty ones left out."""
        chain = functools.partial(self._chain, hook.__name__, failure, expect(*answers))

        def call(*args: P.args, **kwargs: P.kwargs) -> list[R]:  # positional: a TypeError
            return [answer for answer in chain(*args, **kwargs) if answer]

        return call

    # -- the turn --------------------------------------------------------------------------------

    def input(
        self, *, event: InputEvent, session: HookSession | None, failure: str | None = None
    ) -> None:
        self._chain("input", failure, expect_none, event=event, session=self._session(session))

    def before_agent_start(
        self,
        *,
        event: BeforeAgentStartEvent,
        session: HookSession | None,
        failure: str | None = None,
    ) -> list[Any]:
        """The custom messages plugins inject (checked dicts), flattened, in plugin order."""
        answers = self._chain(
            "before_agent_start",
            failure,
            check_before_agent_start,
            event=event,
            session=self._session(session),
        )
        out: list[Any] = []
        for answer in answers:
            if answer is not None:
                out.extend(answer)
        return out

    def context(
        self, *, messages: list[Message], session: HookSession | None, failure: str | None = None
    ) -> list[Message]:
        """The messages after the ``context`` hook; ``messages`` itself when no plugin
        implements it. Hooks get a :class:`~tether.core.hooks.copy_on_access.CopyOnAccess`
        list: a message is copied when a hook first reads it, so ``messages`` never changes
        and a hook that touches nothing costs nothing."""
        if not self.runner.hooked("context"):
            return messages
        from tether.core.hooks.copy_on_access import CopyOnAccess, plain
        from tether.hookspecs.events import ContextEvent

        event = ContextEvent(CopyOnAccess(messages))
        check = check_context(event, messages)
        self._chain("context", failure, check, event=event, session=self._session(session))
        return plain(event.messages)

    def prune_context(
        self, *, messages: list[Message], session: HookSession | None, **event: Any
    ) -> PrunedContext | None:
        """The pruning stage's answer (``None``: no plugin pruned); ``event``: ``preview``,
        ``context_window``. An answer that is not a :class:`PrunedContext` of the same length
        is an error naming the plugin."""
        if not self.runner.hooked("prune_context"):
            return None
        from tether.hookspecs.events import PrunedContext, PruneEvent

        def check(value: Any) -> str | None:
            problem = expect(PrunedContext)(value)
            if problem is None and value is not None and len(value.messages) != len(messages):
                return f"returned {len(value.messages)} messages for {len(messages)}"
            return problem

        kwargs = {"event": PruneEvent(list(messages), **event), "session": self._session(session)}
        return self._first("prune_context", None, check, **kwargs)

    def before_tool_call(
        self, *, event: BeforeToolCallEvent, session: HookSession | None
    ) -> Block | None:
        """A :class:`Block` or ``None``; a failing plugin blocks the call (with a warning)."""
        from tether.hookspecs.events import Block

        try:
            return self.runner.first(
                "before_tool_call",
                {"event": event, "session": self._session(session)},
                expect(Block),
            )
        except Exception as exc:  # a broken guard blocks: never a silent allow
            failure = attributed(exc)
            if failure is None:
                raise
            self.runner.warn(f"{failure}; the {event.tool_name} call was blocked")
            return Block(f"blocked: {failure}")

    def tool_result(self, *, event: ToolResultEvent, session: HookSession | None) -> None:
        """Run the chain; a failing plugin's step is skipped (with a warning)."""
        if not self.runner.hooked("tool_result"):
            return
        kwargs = {"event": event, "session": self._session(session)}
        for plugin, impl in implementations(self.pm, "tool_result"):
            try:
                value = self.runner.call("tool_result", plugin, impl, kwargs)
                problem = expect_none(value)
                if problem is not None:
                    raise HookError(plugin, "tool_result", problem)
            except Exception as exc:  # skipped: the result stays as it was
                failure = attributed(exc)
                if failure is None:
                    raise
                self.runner.warn(
                    f"{failure}; its change to the {event.tool_name} result was skipped"
                )

    @notify()
    def agent_event(
        self, *, event: AgentEvent, session: HookSession | None, warnings: list[str] | None = None
    ) -> None: ...

    # -- session lifecycle -----------------------------------------------------------------------

    @notify()
    def session_start(
        self, *, session: HookSession | None, reason: str, warnings: list[str] | None = None
    ) -> None: ...

    @notify()
    def session_shutdown(
        self, *, session: HookSession | None, reason: str, warnings: list[str] | None = None
    ) -> None: ...

    def context_warnings(
        self, *, session: HookSession | None, messages: list[Message]
    ) -> list[str]:
        """Every plugin's warnings about a bound session's context, in plugin order."""
        kwargs = {"session": self._session(session), "messages": messages}
        answers = self._chain("context_warnings", None, expect(list), **kwargs)
        return [str(line) for answer in answers if answer for line in answer]

    @first_answer("events.Cancel", "events.CustomCompaction")
    def session_before_compact(
        self, *, event: BeforeCompactEvent, session: HookSession | None, failure: str | None = None
    ) -> Cancel | CustomCompaction | None: ...

    @first_answer("gate.GateVerdict")
    def gate_summary(
        self, *, check: SummaryCheck, session: HookSession | None, failure: str | None = None
    ) -> GateVerdict | None:
        """The gate's verdict on a compaction summary; ``None`` when no plugin gates."""

    def pins(self) -> Pins | None:
        """The pins a plugin keeps (``pins``); ``None`` when no plugin does."""
        return self._first("pins", "pins", expect_pins)

    @notify()
    def session_compact(
        self, *, event: CompactEvent, session: HookSession | None, warnings: list[str] | None = None
    ) -> None: ...

    @first_answer("events.Cancel", "events.CustomBranchSummary")
    def session_before_tree(
        self, *, event: BeforeTreeEvent, session: HookSession | None, failure: str | None = None
    ) -> Cancel | CustomBranchSummary | None: ...

    @notify()
    def session_tree(
        self, *, event: TreeEvent, session: HookSession | None, warnings: list[str] | None = None
    ) -> None: ...

    @first_answer("events.Cancel")
    def session_before_fork(
        self, *, event: BeforeForkEvent, session: HookSession | None, failure: str | None = None
    ) -> Cancel | None: ...

    def open_store(self, uri: str, settings: Any = None, *, failure: str | None = None) -> Any:
        return self._first("open_store", failure, None, uri=uri, settings=settings)

    def retry_decision(
        self, *, error: Any, attempt: int, settings: Any, message: Message
    ) -> RetryDecision:
        """The retry policy's decision for retry number ``attempt`` (1-based). A plugin that
        raises or answers wrongly is named in the decision's ``warning`` and the call is not
        retried; with no answer at all (the policy plugin blocked) it is not retried either."""
        from tether.hookspecs.events import RetryDecision

        kwargs = {"error": error, "attempt": attempt, "settings": settings, "message": message}
        try:
            answer = self.runner.first("retry_decision", kwargs, check_retry_decision)
        except Exception as exc:  # a policy can fail in any way: give up, say who
            failure = attributed(exc)
            if failure is None:
                raise
            why = str(failure)
            return RetryDecision(False, attempt, reason=why, announce=True, warning=why)
        if answer is None:
            return RetryDecision(False, attempt, reason=NO_RETRY_POLICY)
        answer.attempt = attempt
        return answer

    def context_overflow(self, *, message: Message, context_window: int | None) -> bool:
        """Whether ``message`` (failed, without a typed error) was a context overflow."""
        kwargs = {"message": message, "context_window": context_window}
        return bool(self._first("context_overflow", "overflow check", expect(bool), **kwargs))


def _said_as(exc: Exception, failure: str | None) -> Exception:
    """The error to raise: with ``failure`` (what did not happen), one HookError line;
    without, the error itself (a typed error keeps its type)."""
    if isinstance(exc, HookError):
        return exc.prefixed(failure or "")
    said = attributed(exc)
    if failure and said is not None:
        return said.prefixed(failure)
    return exc


__all__ = ["NO_MODEL_REGISTRY", "NO_RETRY_POLICY", "Hooks"]
