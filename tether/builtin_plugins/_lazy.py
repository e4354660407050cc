"""Lazy re-exports: a plugin module stays cheap to load and still offers its implementation's
names (``from tether.builtin_plugins.tool_bash import make_bash_tool`` keeps working)."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any


def forward_to(implementation: str, plugin: str) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``plugin`` that looks unknown names up in ``implementation``,
    importing it on first use. Dunder names are never forwarded."""

    def __getattr__(name: str) -> Any:
        if not name.startswith("__"):
            module = import_module(implementation)
            if hasattr(module, name):
                return getattr(module, name)
        raise AttributeError(f"module {plugin!r} has no attribute {name!r}")

    return __getattr__


__all__ = ["forward_to"]
