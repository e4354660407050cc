"""Built-in plugin ``prune``: old tool output leaves the context before any summary is needed.

Before each model call (the ``prune_context`` hook), tool results older than the newest
``compaction.prune.keepToolTokens`` tokens of tool output — never those of the current turn —
are sent as a short placeholder that names the entry and the ``recall`` tool that reads it.
It acts only when that frees at least ``compaction.prune.minFreeTokens``, and a pruned result
stays pruned: the request's prefix stays byte-identical between two steps (a provider's
prompt cache keeps hitting). Automatic compaction runs only when the pruned context is still
past ``window − reserve``. The stored entries never change; each step is one ``custom``
entry (``customType`` ``tether.prune``, skipped by pi) with its boundary and its cost.

Settings (``settings.json``)::

    {"compaction": {"prune": {"enabled": true, "keepToolTokens": 40000, "minFreeTokens": 20000}}}

Defaults: at most opencode's 40k / 20k; a smaller window keeps 5 % of itself and steps by at
least 19 % (a 32k window: 1,600 / 6,080; 128k: 6,400 / 20,000). A step changes the request's
prefix as a compaction does (one cache break), so steps are large and little is kept:
``bench/economy.py`` (window 32k) measured opencode's shares of a 200k window (20 % / 10 %:
55 steps where pi made 37 compactions, 0.58x pi's input) and 10 % / 20 % (31 steps, 0.64x)
against these (36 steps, 0.60x).
``enabled: false`` or ``--no-prune`` (``run``, ``chat``, ``--mode rpc``) turn it off: the
context is then pi's. The stage itself: :mod:`.stage`.
"""

from __future__ import annotations

import weakref
from typing import Any

from tether.hookspecs import hookimpl

KEEP_TOKENS, MIN_FREE_TOKENS = 40000, 20000
KEEP_SHARE, MIN_FREE_SHARE = 0.05, 0.19

_STAGES: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def prune_options(settings: Any) -> dict[str, Any]:
    """The ``compaction.prune`` block of ``settings`` (``{}`` when absent); a bad value
    raises one line naming the field."""
    from tether import TetherError

    block = getattr(settings, "compaction", None)
    extra = getattr(block, "model_extra", None) or {}
    options = extra.get("prune", {})
    if not isinstance(options, dict):
        raise TetherError(f"settings: compaction.prune must be an object, got {options!r}")
    enabled = options.get("enabled", True)
    if not isinstance(enabled, bool):
        raise TetherError(f"settings: compaction.prune.enabled must be true or false: {enabled!r}")
    for key in ("keepToolTokens", "minFreeTokens"):
        value = options.get(key)
        if value is not None and (type(value) is not int or value < 0):
            raise TetherError(
                f"settings: compaction.prune.{key} must be a whole number >= 0, got {value!r}"
            )
    return options


def budget_for(options: dict[str, Any], context_window: int) -> Any:
    """The step budget: the settings, else the defaults scaled to ``context_window``."""
    from tether.builtin_plugins.memory.prune.stage import Budget

    keep, min_free = KEEP_TOKENS, MIN_FREE_TOKENS
    if context_window > 0:
        keep = min(keep, int(context_window * KEEP_SHARE))
        min_free = min(min_free, int(context_window * MIN_FREE_SHARE))
    return Budget(
        keep=options.get("keepToolTokens", keep), min_free=options.get("minFreeTokens", min_free)
    )


def _stage(session: Any) -> Any:
    from tether.builtin_plugins.memory.prune.stage import PruneStage

    stage = _STAGES.get(session)
    if stage is None:
        stage = _STAGES[session] = PruneStage()
    return stage


@hookimpl(trylast=True)
def prune_context(event: Any, session: Any) -> Any:
    options = prune_options(session.settings)
    if not options.get("enabled", True):
        return None
    from tether.builtin_plugins.memory.prune.stage import PRUNE_TYPE
    from tether.hookspecs.events import PrunedContext

    budget = budget_for(options, event.context_window)
    stage = _stage(session)
    messages, freed, saved, report = stage.run(
        event.messages, session, budget, preview=event.preview
    )
    if report is not None:
        report["entryId"] = session.append_entry(PRUNE_TYPE, dict(report))
    return PrunedContext(messages, freed=freed, saved=saved, report=report)
