"""A plugin checked against the hookspecs: the hooks it implements that tether lacks.

An implementation of an unknown hook would stop every command (pluggy's ``check_pending``);
instead such a third-party plugin is reported, naming the hook (and what replaced it, for a
hook of an older tether), and skipped.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import FunctionType, MethodType, ModuleType
from typing import Any

_HOOKABLE = (FunctionType, MethodType, staticmethod, classmethod)  # what pluggy may take

# Hooks that existed once, and what replaced them (named in the warning for an old plugin).
_REPLACED_HOOKS = {
    "summarize": "register_summarizers",
    "count_tokens": "register_token_counters",
    "prepare_compaction": "register_compaction_strategies",
}


def cannot_be_hook(plugin: object, name: str) -> bool:
    """True where pluggy would find no hook in ``plugin.name`` however it looks: a plain
    module's value that is no function. pluggy looks each name of a plugin up with
    ``inspect.getattr_static`` (~20 µs a name, ~20 ms for the built-ins at each start);
    for a plain module that lookup finds the module's own value, or nothing hookable."""
    return type(plugin) is ModuleType and not isinstance(plugin.__dict__.get(name), _HOOKABLE)


def unknown_hooks(callers: Iterable[Any]) -> str | None:
    """``None``, or why a plugin cannot stay: the hooks it implements that tether lacks
    (``callers``: its hook callers, ``pm.get_hookcallers(plugin)``)."""
    unknown = sorted(c.name for c in callers if c.spec is None)
    if not unknown:
        return None
    hints = [f" (now {_REPLACED_HOOKS[n]})" if n in _REPLACED_HOOKS else "" for n in unknown]
    return "unknown hook " + ", ".join(f"'{n}'{h}" for n, h in zip(unknown, hints, strict=True))


__all__ = ["cannot_be_hook", "unknown_hooks"]
