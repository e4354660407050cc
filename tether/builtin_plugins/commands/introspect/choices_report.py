"""What ``tether plugins`` says of the named choices: per kind (summarizer, token counter,
compaction strategy), what is registered and what is chosen, and why (the kernel's rule,
:func:`tether.core.choices.registry.choose`, applied to the settings files' values)."""

from __future__ import annotations

from typing import Any

from tether import TetherError
from tether.memory import KINDS, choose, registered

# The built-in default rules that depend on the session (``tether plugins`` states them).
DEFAULT_RULES = {
    "summarizer": "llm when a model is known (compaction.model or the session's), else offline",
}


def describe(pm: Any, settings: dict[str, str | None], defaults: dict[str, str]) -> dict[str, Any]:
    """For ``tether plugins``: per kind, what is registered and what is chosen (and why).

    ``settings`` maps each kind to its setting's value; ``defaults`` to its built-in default.
    A choice that cannot be made is reported as ``{"error": ...}``."""
    out: dict[str, Any] = {}
    for kind in KINDS:
        found = registered(pm, kind)
        rows = [{"name": r.name, "plugin": r.plugin, "default": r.default} for r in found.values()]
        try:
            choice = choose(
                pm, kind, setting=settings.get(kind), builtin_default=defaults.get(kind)
            )
            chosen: dict[str, Any] = {
                "name": choice.name,
                "plugin": choice.plugin,
                "why": choice.why,
            }
            if choice.why == "built-in default" and kind in DEFAULT_RULES:
                chosen["rule"] = DEFAULT_RULES[kind]  # a session's model may choose otherwise
        except TetherError as exc:
            chosen = {"error": str(exc)}
        out[kind] = {"registered": rows, "chosen": chosen}
    return out


def current_choices(pm: Any) -> dict[str, Any]:
    """:func:`describe` with the settings files' values (read without pydantic). Without a
    session the summarizer's built-in default is ``llm`` only when ``compaction.model`` is set
    (in a session with a model it is ``llm`` too)."""
    from tether import peek_setting

    settings: dict[str, str | None] = {}
    for kind, spec in KINDS.items():
        section, key = spec.setting.split(".")
        value = peek_setting(section, key)
        settings[kind] = None if value in (None, "", "auto") else str(value)
    model = peek_setting("compaction", "model")
    return describe(pm, settings, {"summarizer": "llm" if model else "offline"})


def render_choices(choices: dict[str, Any]) -> list[str]:
    """Two lines per kind: what is chosen (and why), what is registered."""
    lines = []
    for kind, info in choices.items():
        chosen = info["chosen"]
        if "error" in chosen:
            lines.append(f"{kind}: none ({chosen['error']})")
        else:
            why = f"{chosen['why']}: {chosen['rule']}" if "rule" in chosen else chosen["why"]
            lines.append(f"{kind}: {chosen['name']} (plugin {chosen['plugin']}; {why})")
        names = [
            f"{r['name']} ({r['plugin']}{', claims default' if r['default'] else ''})"
            for r in info["registered"]
        ]
        lines.append(f"  registered: {', '.join(names) or '-'}")
    return lines


__all__ = ["DEFAULT_RULES", "current_choices", "describe", "render_choices"]
