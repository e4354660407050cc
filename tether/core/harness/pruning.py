"""The pruning stage around each model call: ``prune_context`` first, then ``context``.

:func:`transform` is the agent's ``transform_context`` for a harness: the pruning stage's
messages (a step announced as a ``context_pruned`` event), then the ``context`` chain.
:func:`preview` is what the threshold check asks (``prune_context`` with ``preview=True``):
the size the next call would send. With no ``prune_context`` implementation both do nothing
(the hook facade answers ``None`` at once).
"""

from __future__ import annotations

from typing import Any, Protocol

from tether.hookspecs.events import AgentEvent, Message, PrunedContext


class PruningHost(Protocol):
    """What the stage needs of its agent host (the harness is one)."""

    hooks: Any
    view: Any
    model: Any

    def emit(self, event: AgentEvent) -> None: ...


def preview(
    host: PruningHost, messages: list[Message], *, real: bool = False
) -> PrunedContext | None:
    """The ``prune_context`` answer for ``messages`` (``real``: for the call about to be made)."""
    window = int(getattr(host.model, "context_window", 0) or 0)
    return host.hooks.prune_context(
        messages=messages, session=host.view, preview=not real, context_window=window
    )


def transform(
    host: PruningHost, messages: list[Message], *, context_hooks: Any
) -> list[Message] | None:
    """The messages to send (``None``: unchanged): the pruning stage's, then those of
    ``context_hooks`` (the harness's ``context`` chain: ``None`` when no plugin hooks it)."""
    pruned = preview(host, messages, real=True)
    if pruned is not None:
        if pruned.report is not None:
            host.emit(AgentEvent("context_pruned", dict(pruned.report)))
        messages = pruned.messages
    hooked = context_hooks(messages)
    if hooked is not None:
        return hooked  # type: ignore[no-any-return]
    return None if pruned is None else messages


__all__ = ["PruningHost", "preview", "transform"]
