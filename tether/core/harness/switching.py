"""The harness's session-level actions: bind, new, resume, fork, clone, navigate, compact.

Plain functions of a :class:`SessionHost` (the harness is one; its methods of the same names
delegate here). :func:`bind_session` restores what a session runs with (as pi does): the
agent's messages from the context, the model and thinking level (the ``choose_model`` and
``choose_thinking_level`` hooks, :mod:`.setup`); a session
without messages gets ``model_change`` then ``thinking_level_change`` before its first user
message. Switching sessions fires ``session_shutdown`` on the old one and ``session_start``
(reason ``new``/``resume``/``fork``) on the new one; fork and clone ask
``session_before_fork`` first.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Protocol

from tether.core.base.errors import TetherError
from tether.core.harness.setup import (
    ModelRequest,
    branch_thinking_level,
    choose_model,
    choose_thinking_level,
)
from tether.hookspecs.abort import AbortSignal
from tether.hookspecs.events import BeforeForkEvent, Cancel, Message
from tether.hookspecs.providers import Model

if TYPE_CHECKING:
    from tether.core.memory.branching import TreeOutcome
    from tether.core.memory.compaction import CompactionOutcome


class SessionHost(Protocol):
    """What the session actions read and change on their agent host (the harness is one)."""

    session: Any
    lease: Any
    model: Model | None
    thinking_level: str
    registry: Any
    settings: Any
    agent: Any
    hooks: Any
    view: Any
    cwd: str
    started: bool
    busy: bool
    op_signal: AbortSignal
    next_turn: list[Message]
    compactor: Any

    def warn(self, message: str) -> None: ...

    def progress(self, line: str) -> None: ...

    def reload_messages(self) -> None: ...

    def release_lease(self) -> None: ...


# -- binding ---------------------------------------------------------------------------------


def bind_session(host: SessionHost, request: ModelRequest, thinking: str | None = None) -> None:
    """Load the session's context into the agent; choose and record model and thinking."""
    session = host.session
    context = session.build_context()
    has_messages = bool(context.messages)
    switching = host.model is not None
    stored = context.model or {}
    model = choose_model(
        host.hooks,
        host.registry,
        request,
        stored=stored if has_messages else None,
        current=host.model,
        warn=host.warn,
    )
    if thinking is None and switching and not has_messages:
        thinking = host.thinking_level
    branch_level = branch_thinking_level(session) if has_messages else None
    level = choose_thinking_level(
        host.hooks,
        thinking or None,
        branch_level=branch_level,
        model=model,
        settings=host.settings,
    )
    if not has_messages:
        session.append_model_change(model.provider, model.id)
        session.append_thinking_level_change(level)
    else:
        if request.given and (stored.get("provider"), stored.get("modelId")) != (
            model.provider,
            model.id,
        ):
            session.append_model_change(model.provider, model.id)
        if branch_level != level:
            session.append_thinking_level_change(level)
    host.model, host.thinking_level = model, level
    agent = host.agent
    agent.reset()
    agent.state.messages = context.messages
    # the context_warnings hook (built-in: context_check); the file is never changed
    for warning in host.hooks.context_warnings(session=host.view, messages=context.messages):
        host.warn(warning)
    agent.state.model = model
    agent.state.thinking_level = level
    agent.state.system_prompt = ""
    host.next_turn = []


def _switch(host: SessionHost, new_session: Any, reason: str) -> None:
    from tether.core.session.opening import lease_session

    _idle_or_fail(host, "switch sessions")
    lease = lease_session(new_session)  # before anything changes: busy → nothing switched
    started = host.started
    if started:
        host.hooks.session_shutdown(session=host.view, reason=reason)
    host.release_lease()
    host.session, host.lease = new_session, lease
    bind_session(host, ModelRequest())
    if started:
        host.hooks.session_start(session=host.view, reason=reason)


def _idle_or_fail(host: SessionHost, what: str) -> None:
    if host.busy or host.agent.is_running:
        raise TetherError(f"cannot {what} while a prompt is running")


# -- new, resume, fork, clone ----------------------------------------------------------------


def new_session(host: SessionHost) -> None:
    """Continue in a fresh session (same folder and cwd)."""
    _switch(host, host.session.new_session(), "new")


def resume(host: SessionHost, target: str | os.PathLike[str] | Any) -> None:
    """Switch to another session (a path or an open :class:`Session`)."""
    from tether.core.session.opening import lease_store, open_store
    from tether.core.session.session import Session

    if not isinstance(target, (str, os.PathLike)):
        _switch(host, target, "resume")
        return
    plugins = getattr(host, "pm", None)
    store = open_store(target, plugins=plugins)
    lease = lease_store(store)  # read it under the lease: not a stale copy
    try:
        _switch(host, Session.open(target, cwd=host.cwd, store=store, plugins=plugins), "resume")
    finally:
        if lease is not None:
            lease.release()


def _fork_allowed(host: SessionHost, entry_id: str | None, position: str) -> bool:
    event = BeforeForkEvent(entry_id, position)  # type: ignore[arg-type]
    answer = host.hooks.session_before_fork(event=event, session=host.view, failure="fork")
    if isinstance(answer, Cancel):
        host.warn(f"fork cancelled: {answer.reason}")
        return False
    return True


def fork(host: SessionHost, entry_id: str) -> str | None:
    """pi's ``/fork``: a new session up to (not including) the user message ``entry_id``.

    Returns that message's text (to edit and resend), or ``None`` if a plugin cancelled.
    """
    _idle_or_fail(host, "fork")
    if not _fork_allowed(host, entry_id, "before"):
        return None
    new_session, text = host.session.fork(entry_id, position="before")
    _switch(host, new_session, "fork")
    return str(text)


def clone(host: SessionHost, entry_id: str | None = None) -> bool:
    """pi's ``/clone``: a new session holding the path to ``entry_id`` (default: the leaf)."""
    _idle_or_fail(host, "clone")
    target = entry_id or host.session.leaf_id
    if not _fork_allowed(host, target, "at"):
        return False
    _switch(host, host.session.clone(target), "fork")
    return True


# -- tree, compaction ------------------------------------------------------------------------


def navigate(
    host: SessionHost,
    target_id: str,
    *,
    summarize: bool = False,
    custom_instructions: str | None = None,
    label: str | None = None,
) -> TreeOutcome:
    """Move the leaf to ``target_id`` (pi's ``/tree``), optionally summarizing the branch
    left behind; the agent continues from the new position."""
    from tether.core.memory.branching import navigate_tree

    _idle_or_fail(host, "navigate")
    host.busy, host.op_signal = True, AbortSignal()
    try:
        outcome = navigate_tree(
            host.view,
            host.hooks,
            host.settings,
            target_id,
            summarize=summarize,
            custom_instructions=custom_instructions,
            label=label,
            progress=host.progress,
            signal=host.op_signal,
        )
    finally:
        host.busy = False
    for warning in outcome.warnings:
        host.warn(warning)
    host.reload_messages()
    return outcome


def compact(host: SessionHost, custom_instructions: str | None = None) -> CompactionOutcome | None:
    """Manual compaction (``/compact [TEXT]``); raises :class:`TetherError` on failure."""
    _idle_or_fail(host, "compact")
    host.busy, host.op_signal = True, AbortSignal()
    try:
        return host.compactor.run("manual", custom_instructions=custom_instructions)
    finally:
        host.busy = False


# -- model, thinking, name, label ------------------------------------------------------------


def set_model(host: SessionHost, ref: str) -> None:
    """Switch models (``provider/model``); recorded as a ``model_change`` entry."""
    model = choose_model(host.hooks, host.registry, ModelRequest(ref=ref), warn=host.warn)
    host.session.append_model_change(model.provider, model.id)
    host.model = host.agent.state.model = model
    level = choose_thinking_level(
        host.hooks, host.thinking_level, model=model, settings=host.settings
    )
    if level != host.thinking_level:
        set_thinking_level(host, level)


def set_thinking_level(host: SessionHost, level: str) -> None:
    """Change the thinking level; recorded only when the effective level changes."""
    effective = choose_thinking_level(host.hooks, level, model=host.model, settings=host.settings)
    if effective != host.thinking_level:
        host.session.append_thinking_level_change(effective)
        host.thinking_level = host.agent.state.thinking_level = effective


def set_name(host: SessionHost, name: str) -> None:
    host.session.append_session_info(name)


def set_label(host: SessionHost, entry_id: str, label: str | None) -> None:
    host.session.append_label_change(entry_id, label or None)


__all__ = [
    "SessionHost",
    "bind_session",
    "clone",
    "compact",
    "fork",
    "navigate",
    "new_session",
    "resume",
    "set_label",
    "set_model",
    "set_name",
    "set_thinking_level",
]
