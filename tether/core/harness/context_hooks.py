"""The ``context`` hooks of a harness: run on the messages of every model call.

A prompt's first call has its hooks run before anything of the prompt is stored
(:meth:`ContextHooks.before_prompt`): a plugin's wrong answer (checked by the hook facade)
fails the prompt with nothing written, and the loop's own call for those same messages reuses
that answer instead of asking the plugins twice.
"""

from __future__ import annotations

from typing import Any

from tether.hookspecs.events import Message


class ContextHooks:
    """``transform_context`` of the agent: ``None`` (no plugin hooks ``context``) or the
    messages after the hooks."""

    def __init__(self, hooks: Any, session: Any) -> None:
        self.hooks = hooks
        self.session = session
        self.hooked = bool(hooks.pm.hook.context.get_hookimpls())
        self._ready: tuple[list[int], list[Message]] | None = None

    def before_prompt(self, context: list[Message]) -> None:
        """Run the hooks on ``context`` (the prompt's first call) now; a failure raises."""
        self._ready = None
        if self.hooked:
            answer = self.hooks.context(messages=context, session=self.session)
            self._ready = ([id(m) for m in context], answer)

    def __call__(self, messages: list[Message]) -> list[Message] | None:
        if not self.hooked:
            return None
        ready, self._ready = self._ready, None
        if ready is not None and ready[0] == [id(m) for m in messages]:
            return ready[1]
        return self.hooks.context(messages=messages, session=self.session)


__all__ = ["ContextHooks"]
