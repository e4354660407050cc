"""tether — a plugin-first agent harness with pi-compatible, tree-shaped session memory.

The public API is listed in ``__all__`` (guarded by a test); everything else is private.
Names are imported lazily so that ``import tether`` stays cheap.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    "hookimpl": "tether.hookspecs",
    "hookspec": "tether.hookspecs",
    "create_plugin_manager": "tether.core.plugins",
    "PluginManager": "tether.core.plugins",
    "PluginError": "tether.core.plugins",
    "TetherError": "tether.core.errors",
    "SessionFileError": "tether.core.errors",
    "Hooks": "tether.core.hooks",
}

__all__ = ["__version__", *sorted(_EXPORTS)]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'tether' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
