"""The harness's session-level actions: bind, new, resume, fork, clone, navigate, compact.

:meth:`SessionActions.bind_session` restores what a session runs with (as pi does): the agent's
messages from the context, the model and thinking level (:mod:`.harness_setup`); a session
without messages gets ``model_change`` then ``thinking_level_change`` before its first user
message. Switching sessions fires ``session_shutdown`` on the old one and ``session_start``
(reason ``new``/``resume``/``fork``) on the new one; fork and clone ask
``session_before_fork`` first.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from tether.core.agent.abort import AbortSignal
from tether.core.agent.providers import ProviderConfigError
from tether.core.context.check import context_warnings
from tether.core.harness.setup import (
    ModelRequest,
    branch_thinking_level,
    check_thinking_level,
    choose_thinking_level,
    clamp_thinking,
    resolve_requested,
)
from tether.core.host.errors import TetherError
from tether.hookspecs.events import BeforeForkEvent, Cancel

if TYPE_CHECKING:
    from tether.core.harness.harness import Harness
    from tether.core.memory.branching import TreeOutcome
    from tether.core.memory.compaction import CompactionOutcome


class SessionActions:
    """Mixed into :class:`~tether.core.harness.harness.Harness`."""

    # -- binding ---------------------------------------------------------------------------------

    def bind_session(self: Harness, request: ModelRequest, thinking: str | None = None) -> None:
        """Load the session's context into the agent; choose and record model and thinking."""
        session = self.session
        context = session.build_context()
        has_messages = bool(context.messages)
        switching = self.model is not None
        stored = context.model or {}
        if request.given:
            model = resolve_requested(self.registry, request)
        elif has_messages and stored.get("provider") and stored.get("modelId"):
            wanted = ModelRequest(provider=str(stored["provider"]), model=str(stored["modelId"]))
            try:
                model = resolve_requested(self.registry, wanted)
            except ProviderConfigError:
                model = (
                    self.model if switching else resolve_requested(self.registry, ModelRequest())
                )
                self.warn(
                    f"Could not restore model {wanted.provider}/{wanted.model}. Using {model.ref}"
                )
        else:
            model = self.model if switching else resolve_requested(self.registry, ModelRequest())
        assert model is not None
        if thinking is None and switching and not has_messages:
            thinking = self.thinking_level
        branch_level = branch_thinking_level(session) if has_messages else None
        level = choose_thinking_level(
            thinking,
            has_messages=has_messages,
            branch_level=branch_level,
            settings=self.settings,
            model=model,
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
        self.model, self.thinking_level = model, level
        agent = self.agent
        agent.reset()
        agent.state.messages = context.messages
        for warning in context_warnings(session, context.messages):  # file never changed
            self.warn(warning)
        agent.state.model = model
        agent.state.thinking_level = level
        agent.state.system_prompt = ""
        self.next_turn = []

    def _switch(self: Harness, new_session: Any, reason: str) -> None:
        from tether.core.storage.lease import lease_session

        self._idle_or_fail("switch sessions")
        lease = lease_session(new_session)  # before anything changes: busy → nothing switched
        started = self.started
        if started:
            self.hooks.session_shutdown(session=self.view, reason=reason)
        self._release_lease()
        self.session, self.lease = new_session, lease
        self.bind_session(ModelRequest())
        if started:
            self.hooks.session_start(session=self.view, reason=reason)

    def _idle_or_fail(self: Harness, what: str) -> None:
        if self.busy or self.agent.is_running:
            raise TetherError(f"cannot {what} while a prompt is running")

    # -- new, resume, fork, clone ----------------------------------------------------------------

    def new_session(self: Harness) -> None:
        """Continue in a fresh session (same folder and cwd)."""
        self._switch(self.session.new_session(), "new")

    def resume(self: Harness, target: str | os.PathLike[str] | Any) -> None:
        """Switch to another session (a path or an open :class:`Session`)."""
        from tether.core.session.session import Session
        from tether.core.storage.lease import SessionLease

        if not isinstance(target, (str, os.PathLike)):
            self._switch(target, "resume")
            return
        with SessionLease(target).acquire():  # read it under the lease: not a stale copy
            self._switch(Session.open(target, cwd=self.cwd), "resume")

    def _fork_allowed(self: Harness, entry_id: str | None, position: str) -> bool:
        event = BeforeForkEvent(entry_id, position)  # type: ignore[arg-type]
        answer = self.hooks.session_before_fork(event=event, session=self.view, failure="fork")
        if isinstance(answer, Cancel):
            self.warn(f"fork cancelled: {answer.reason}")
            return False
        return True

    def fork(self: Harness, entry_id: str) -> str | None:
        """pi's ``/fork``: a new session up to (not including) the user message ``entry_id``.

        Returns that message's text (to edit and resend), or ``None`` if a plugin cancelled.
        """
        self._idle_or_fail("fork")
        if not self._fork_allowed(entry_id, "before"):
            return None
        new_session, text = self.session.fork(entry_id, position="before")
        self._switch(new_session, "fork")
        return str(text)

    def clone(self: Harness, entry_id: str | None = None) -> bool:
        """pi's ``/clone``: a new session holding the path to ``entry_id`` (default: the leaf)."""
        self._idle_or_fail("clone")
        target = entry_id or self.session.leaf_id
        if not self._fork_allowed(target, "at"):
            return False
        self._switch(self.session.clone(target), "fork")
        return True

    # -- tree, compaction ------------------------------------------------------------------------

    def navigate(
        self: Harness,
        target_id: str,
        *,
        summarize: bool = False,
        custom_instructions: str | None = None,
        label: str | None = None,
    ) -> TreeOutcome:
        """Move the leaf to ``target_id`` (pi's ``/tree``), optionally summarizing the branch
        left behind; the agent continues from the new position."""
        from tether.core.memory.branching import navigate_tree

        self._idle_or_fail("navigate")
        self.busy, self.op_signal = True, AbortSignal()
        try:
            outcome = navigate_tree(
                self.view,
                self.hooks,
                self.settings,
                target_id,
                summarize=summarize,
                custom_instructions=custom_instructions,
                label=label,
                progress=self.progress,
                signal=self.op_signal,
            )
        finally:
            self.busy = False
        for warning in outcome.warnings:
            self.warn(warning)
        self.reload_messages()
        return outcome

    def compact(self: Harness, custom_instructions: str | None = None) -> CompactionOutcome | None:
        """Manual compaction (``/compact [TEXT]``); raises :class:`TetherError` on failure."""
        self._idle_or_fail("compact")
        self.busy, self.op_signal = True, AbortSignal()
        try:
            return self.compactor.run("manual", custom_instructions=custom_instructions)
        finally:
            self.busy = False

    # -- model, thinking, name, label ------------------------------------------------------------

    def set_model(self: Harness, ref: str) -> None:
        """Switch models (``provider/model``); recorded as a ``model_change`` entry."""
        model = resolve_requested(self.registry, ModelRequest(ref=ref))
        self.session.append_model_change(model.provider, model.id)
        self.model = self.agent.state.model = model
        level = clamp_thinking(self.thinking_level, model)
        if level != self.thinking_level:
            self.set_thinking_level(level)

    def set_thinking_level(self: Harness, level: str) -> None:
        """Change the thinking level; recorded only when the effective level changes."""
        effective = clamp_thinking(check_thinking_level(level), self.model)
        if effective != self.thinking_level:
            self.session.append_thinking_level_change(effective)
            self.thinking_level = self.agent.state.thinking_level = effective

    def set_name(self: Harness, name: str) -> None:
        self.session.append_session_info(name)

    def set_label(self: Harness, entry_id: str, label: str | None) -> None:
        self.session.append_label_change(entry_id, label or None)


__all__ = ["SessionActions"]
