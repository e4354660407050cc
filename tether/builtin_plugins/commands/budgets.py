"""The token budgets of ``tether session estimate`` and ``prepare``: the window of the
session's model and the ``compaction`` settings, as a run and ``session compact`` use them.

- window: ``--window``, else the context window of the branch's model (``models.json`` and
  the providers' registered defaults), else :data:`~tether.builtin_plugins.commands.DEFAULT_WINDOW`;
- reserve, keep, enabled, strategy: the flags, else ``compaction`` in the settings files,
  read exactly as ``session compact`` reads them (:func:`tether.core.base.settings.load_settings`
  and :func:`tether.core.memory.compaction.compaction_settings`). Without a ``compaction``
  section in the files, pydantic is not even imported (pi's defaults and the flags).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tether.builtin_plugins.commands import DEFAULT_KEEP, DEFAULT_RESERVE, DEFAULT_WINDOW


@dataclass
class Window:
    tokens: int
    source: str  # "--window", "provider/model", or "default"


def branch_model(branch: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The model in force at the end of a root-first ``branch`` (pi's rule: the last
    ``model_change`` or assistant message), without building the context."""
    from tether.memory import model_of_source

    for entry in reversed(branch):
        kind = entry.get("type")
        if kind == "model_change":
            return model_of_source(entry, False)
        message = entry.get("message") if kind == "message" else None
        if isinstance(message, dict) and message.get("role") == "assistant":
            return model_of_source(message, True)
    return None


def session_window(pm: Any, model: dict[str, Any] | None, flag: int | None) -> Window:
    """The context window for a branch whose model is ``model`` (``{provider, modelId}``)."""
    if flag is not None:
        return Window(flag, "--window")
    provider = (model or {}).get("provider")
    model_id = (model or {}).get("modelId") or (model or {}).get("id")
    if isinstance(provider, str) and isinstance(model_id, str) and provider and model_id:
        from tether.builtin_plugins.providers.models.registry import ProviderRegistry
        from tether.providers import ProviderConfigError

        try:
            found = ProviderRegistry(pm).find_model(provider, model_id)
        except ProviderConfigError:
            return Window(DEFAULT_WINDOW, "default")
        return Window(found.context_window, found.ref)
    return Window(DEFAULT_WINDOW, "default")


def compaction_budget(*, keep: int | None, reserve: int | None, strategy: str | None = None) -> Any:
    """The :class:`~tether.hookspecs.events.CompactionSettings` ``session compact`` would use
    with the same flags."""
    from tether.cli import peek_section
    from tether.hookspecs.events import CompactionSettings

    overrides = {"keepRecentTokens": keep, "reserveTokens": reserve, "strategy": strategy}
    overrides = {k: v for k, v in overrides.items() if v is not None}
    if not peek_section("compaction") and _valid_flags(keep, reserve):
        # pi's defaults and the flags, as load_settings has them (a bad flag: its error)
        options: dict[str, Any] = {
            "enabled": True,
            "reserveTokens": DEFAULT_RESERVE if reserve is None else reserve,
            "keepRecentTokens": DEFAULT_KEEP if keep is None else keep,
        }
        if strategy is not None:
            options["strategy"] = strategy
        return CompactionSettings(
            reserve_tokens=options["reserveTokens"],
            keep_recent_tokens=options["keepRecentTokens"],
            strategy=strategy or None,
            options=options,
        )
    from tether import load_settings
    from tether.memory import compaction_settings

    return compaction_settings(load_settings(overrides={"compaction": overrides}))


def _valid_flags(*tokens: int | None) -> bool:
    """Whether the token flags are what the settings model accepts (absent, or ints >= 0)."""
    return all(t is None or (t.__class__ is int and t >= 0) for t in tokens)


def settings_json(settings: Any) -> dict[str, Any]:
    """pi's keys of the settings the threshold test reads (the ``estimate`` JSON)."""
    return {
        "enabled": settings.enabled,
        "reserveTokens": settings.reserve_tokens,
        "keepRecentTokens": settings.keep_recent_tokens,
    }


__all__ = ["Window", "branch_model", "compaction_budget", "session_window", "settings_json"]
