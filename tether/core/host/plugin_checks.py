"""A plugin checked against the hookspecs: the hooks it implements that tether lacks.

An implementation of an unknown hook would stop every command (pluggy's ``check_pending``);
instead such a third-party plugin is reported, naming the hook (and what replaced it, for a
hook of an older tether), and skipped.
"""

from __future__ import annotations

from typing import Any

# Hooks that existed once, and what replaced them (named in the warning for an old plugin).
_REPLACED_HOOKS = {
    "summarize": "register_summarizers",
    "count_tokens": "register_token_counters",
    "prepare_compaction": "register_compaction_strategies",
}


def unknown_hooks(pm: Any, plugin: object) -> str | None:
    """``None``, or why ``plugin`` cannot stay: the hooks it implements that tether lacks."""
    unknown = sorted(c.name for c in pm.get_hookcallers(plugin) or [] if c.spec is None)
    if not unknown:
        return None
    hints = [f" (now {_REPLACED_HOOKS[n]})" if n in _REPLACED_HOOKS else "" for n in unknown]
    return "unknown hook " + ", ".join(f"'{n}'{h}" for n, h in zip(unknown, hints, strict=True))


__all__ = ["unknown_hooks"]
