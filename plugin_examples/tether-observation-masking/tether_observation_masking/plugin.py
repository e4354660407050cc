"""tether plugin ``observation_masking``: a whole compaction strategy in two hooks.

Enable it with ``{"compaction": {"strategy": "observation-masking"}}`` in ``settings.json``
(installed but not enabled, it stays out of the way and pi's strategy answers).

- ``prepare_compaction`` — keeps every user and assistant message; the tool results older
  than the kept window (``compaction.keepRecentTokens``) are masked, and only their content
  is summarized (see :func:`tether_observation_masking.masking.plan_masking`).
- ``context`` — before every model call (and in ``tether session context``), replaces each
  masked tool result by its one-line stub, read from the latest compaction's ``details``.

The session file stays pi's format: the compaction entry keeps everything from where the
context started, so pi opens the file and simply shows the tool outputs unmasked.
"""

from __future__ import annotations

from typing import Any

from tether import (
    CompactionPreparation,
    CompactionSettings,
    ContextEvent,
    NothingToCompact,
    hookimpl,
)
from tether_observation_masking.masking import (
    STRATEGY,
    Count,
    last_compaction,
    mask_messages,
    masks_of,
    plan_masking,
    rough_count,
)


def _counter(session: Any) -> Count:
    """The session's ``count_tokens`` hook when reachable, else a chars/4 estimate."""
    hooks = getattr(session, "hooks", None)
    if hooks is None or not hasattr(hooks, "count_tokens"):
        return rough_count
    model = getattr(session, "model", None)
    return lambda messages: hooks.count_tokens(messages, model if isinstance(model, dict) else None)


def _context_tokens(branch: list[dict[str, Any]], count: Count) -> int:
    from tether import build_context_from_path

    messages = build_context_from_path(branch).messages
    return sum(count(messages)) if messages else 0


@hookimpl
def prepare_compaction(
    path: list[dict[str, Any]], settings: CompactionSettings, session: Any
) -> CompactionPreparation | NothingToCompact | None:
    """Mask old tool outputs when ``compaction.strategy`` asks for it; else pass."""
    if settings.strategy != STRATEGY:
        return None
    count = _counter(session)
    return plan_masking(path, settings, count, _context_tokens(path, count))


@hookimpl
def context(event: ContextEvent, session: Any) -> None:
    """Stub the tool results masked by the latest compaction of the session's branch."""
    get_branch = getattr(session, "get_branch", None)
    if not callable(get_branch):
        return
    _index, compaction = last_compaction(get_branch())
    masks = masks_of(compaction)
    if masks:
        event.messages[:] = mask_messages(event.messages, masks)


__all__ = ["context", "prepare_compaction"]
