"""Built-in plugin ``model_choice``: which model and thinking level a session runs with (pi's
``createAgentSession``), answering ``choose_model`` and ``choose_thinking_level``
(``trylast``: any plugin answering wins).

Model: the one asked for (``--provider``/``--model``, ``/model``); else, for a session with
messages, the model of its context if it can still be used (configured, key present); else
the current one (switching sessions) or the settings' default (``defaultProvider``/
``defaultModel``) — with a warning when a stored model could not be restored. Thinking
level: the one asked for; else the branch's last ``thinking_level_change`` for a session that
has one; else ``defaultThinkingLevel`` or ``"medium"``; always clamped to what the model
supports (``"off"`` without reasoning).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tether.hookspecs import hookimpl

if TYPE_CHECKING:
    from collections.abc import Callable

    from tether import Model

THINKING_LEVELS = ("off", "minimal", "low", "medium", "high", "xhigh")
DEFAULT_THINKING_LEVEL = "medium"


def check_thinking_level(level: str) -> str:
    if level not in THINKING_LEVELS:
        from tether.cli import UsageError

        raise UsageError(
            f"unknown thinking level '{level}': expected one of {', '.join(THINKING_LEVELS)}"
        )
    return level


def clamp_thinking(level: str, model: Model | None) -> str:
    """``"off"`` for models without reasoning; ``xhigh`` stays (adapters map it)."""
    if model is None or not model.reasoning:
        return "off"
    return level if level in THINKING_LEVELS else DEFAULT_THINKING_LEVEL


def resolve_requested(
    registry: Any, ref: str | None = None, provider: str | None = None, model: str | None = None
) -> Model:
    """The model the user named; a configuration problem is a one-line error."""
    found, _ = registry.resolve(ref, provider=provider, model=model)
    registry.api_key(found)  # no key → ProviderConfigError naming the variable to set
    return found  # type: ignore[no-any-return]


@hookimpl(trylast=True)
def choose_model(
    registry: Any,
    ref: str | None,
    provider: str | None,
    model: str | None,
    stored: dict[str, Any] | None,
    current: Model | None,
    warn: Callable[[str], None],
) -> Model:
    """The model asked for, else the stored one if usable, else the current or default one."""
    from tether.providers import ProviderConfigError

    if ref or provider or model:
        return resolve_requested(registry, ref, provider, model)
    stored = stored or {}
    if stored.get("provider") and stored.get("modelId"):
        wanted = f"{stored['provider']}/{stored['modelId']}"
        try:
            return resolve_requested(
                registry, provider=str(stored["provider"]), model=str(stored["modelId"])
            )
        except ProviderConfigError:
            chosen = current if current is not None else resolve_requested(registry)
            warn(f"Could not restore model {wanted}. Using {chosen.ref}")
            return chosen
    return current if current is not None else resolve_requested(registry)


@hookimpl(trylast=True)
def choose_thinking_level(
    requested: str | None, branch_level: str | None, model: Model | None, settings: Any
) -> str:
    """The level asked for (checked), else the branch's, else the settings' default; clamped."""
    if requested is not None:
        level = check_thinking_level(requested)
    elif branch_level:
        level = branch_level
    else:
        level = getattr(settings, "default_thinking_level", None) or DEFAULT_THINKING_LEVEL
    return clamp_thinking(level, model)


__all__ = [
    "DEFAULT_THINKING_LEVEL",
    "THINKING_LEVELS",
    "check_thinking_level",
    "choose_model",
    "choose_thinking_level",
    "clamp_thinking",
]
