"""tether plugin ``observation_masking``: a whole compaction strategy, registered by name.

Choose it with ``{"compaction": {"strategy": "observation-masking"}}`` in ``settings.json``
(or ``tether session compact --strategy observation-masking``). Installed but not chosen, it
stays out of the way and pi's strategy (``pi``, the built-in default) answers.

- ``register_compaction_strategies`` — registers ``observation-masking``: it keeps every user
  and assistant message; the tool results older than the kept window
  (``compaction.keepRecentTokens``) are masked, and only their content is summarized (see
  :func:`tether_observation_masking.masking.plan_masking`).
- ``context`` — before every model call (and in ``tether session context``), replaces each
  masked tool result by its one-line stub, read from the latest compaction's ``details``.

The session file stays pi's format: the compaction entry keeps everything from where the
context started, so pi opens the file and simply shows the tool outputs unmasked.
"""

from __future__ import annotations

from typing import Any

import tether
from tether_observation_masking.masking import (
    STRATEGY,
    Count,
    last_compaction,
    mask_messages,
    masks_of,
    plan_masking,
)


def _context_tokens(branch: list[dict[str, Any]], count: Count) -> int:
    messages = tether.build_session_context(branch).messages
    return sum(count(messages)) if messages else 0


def prepare_masking(
    request: tether.PrepareRequest,
) -> tether.CompactionPreparation | tether.NothingToCompact:
    """The masking compaction of ``request.path``, counted with tether's chosen counter."""
    count = request.count
    return plan_masking(request.path, request.settings, count, _context_tokens(request.path, count))


@tether.hookimpl
def register_compaction_strategies(register: Any) -> None:
    register(STRATEGY, prepare_masking)


@tether.hookimpl
def context(event: Any, session: Any) -> None:
    """Stub the tool results masked by the latest compaction of the session's branch."""
    get_branch = getattr(session, "get_branch", None)
    if not callable(get_branch):
        return
    if not event.messages or event.messages[0].get("role") != "compactionSummary":
        return  # no compaction on the branch: nothing is masked (and no branch is read)
    _index, compaction = last_compaction(get_branch())
    masks = masks_of(compaction)
    if masks:
        event.messages[:] = mask_messages(event.messages, masks)


__all__ = ["context", "prepare_masking", "register_compaction_strategies"]
