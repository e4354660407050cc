"""Built-in plugin ``compaction_strategy``: pi 0.73's compaction preparation (the default answer
to ``prepare_compaction``), with tether's fixes — split turns decided on the real cut point
(§8.8) and "nothing to compact" instead of an empty summary request (§8.10).

The algorithm lives in ``_prepare`` / ``_cut_points`` as pure functions over raw entries; this
module only finds the token counter to use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tether.hookspecs import hookimpl
from tether.hookspecs.events import CompactionPreparation, CompactionSettings, NothingToCompact

if TYPE_CHECKING:
    from tether.builtin_plugins._cut_points import Count


def _estimate(messages: list[dict[str, Any]]) -> list[int]:
    from tether.builtin_plugins.token_estimate import estimate_tokens

    return [estimate_tokens(m) for m in messages]


def counter_for(session: Any) -> Count:
    """The ``count_tokens`` hook reachable from ``session``, else pi's chars/4 estimate.

    ``session`` may expose ``hooks`` (a :class:`tether.core.hooks.Hooks`) or ``pm`` /
    ``plugin_manager`` (a plugin manager), and optionally ``model`` (passed to the hook).
    """
    if session is None:
        return _estimate
    hooks = getattr(session, "hooks", None)
    if hooks is None or not hasattr(hooks, "count_tokens"):
        pm = getattr(session, "pm", None) or getattr(session, "plugin_manager", None)
        if pm is None:
            return _estimate
        from tether.core.hooks import Hooks

        hooks = Hooks(pm)
    model = getattr(session, "model", None)
    model = model if isinstance(model, dict) else None

    def count(messages: list[dict[str, Any]]) -> list[int]:
        return hooks.count_tokens(messages, model)

    return count


@hookimpl(trylast=True)
def prepare_compaction(
    path: list[dict[str, Any]], settings: CompactionSettings, session: Any
) -> CompactionPreparation | NothingToCompact:
    """pi's preparation of ``path`` (root-first branch) with tether's fixes."""
    from tether.builtin_plugins._prepare import prepare_compaction_entries

    return prepare_compaction_entries(path, settings, counter_for(session))


__all__ = ["counter_for", "prepare_compaction"]
