"""Collecting and ordering the tools plugins register (``register_tools``); what a tool is:
:mod:`tether.hookspecs.tools`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tether.core.hooks.facade import Hooks
from tether.hookspecs.tools import Tool, ToolResult

if TYPE_CHECKING:
    import pluggy

#: pi's order of its built-in tools; ``order_tools`` lists these first, others after.
BUILTIN_TOOL_ORDER: tuple[str, ...] = ("read", "bash", "edit", "write", "grep", "find", "ls")


def collect_tools(
    pm: pluggy.PluginManager, *, origins: dict[str, str] | None = None
) -> dict[str, Tool]:
    """Every tool contributed through ``register_tools``, by name.

    Implementations run in registration order (built-ins first, then third-party plugins),
    so a later registration of a name replaces the earlier one and keeps its position.
    A plugin whose ``register_tools`` raises is named in a warning and none of its tools count.
    ``origins``, when given, is filled with ``tool name -> plugin name``.
    """
    staging = _ToolRegistration()
    Hooks(pm).register_tools(staging)
    if origins is not None:
        origins.update(staging.origins)
    return staging.tools


class _ToolRegistration:
    """Collects one plugin's tools apart until its ``register_tools`` has returned."""

    def __init__(self) -> None:
        self.tools: dict[str, Tool] = {}
        self.origins: dict[str, str] = {}
        self.pending: list[Any] = []

    def arguments(self, plugin: str) -> dict[str, Any]:
        self.pending = []

        def register(tool: Any) -> None:
            name = getattr(tool, "name", None)
            if not isinstance(name, str) or not name:
                raise TypeError(f"plugin '{plugin}' registered a tool without a name: {tool!r}")
            self.pending.append(tool)

        return {"register": register}

    def keep(self, plugin: str) -> None:
        for tool in self.pending:
            self.tools[tool.name] = tool
            self.origins[tool.name] = plugin

    def drop(self, plugin: str) -> None:
        self.pending = []


def order_tools(tools: dict[str, Tool]) -> list[Tool]:
    """Tools in :data:`BUILTIN_TOOL_ORDER` first, then the others in registration order."""
    rank = {name: i for i, name in enumerate(BUILTIN_TOOL_ORDER)}
    position = {name: i for i, name in enumerate(tools)}
    names = sorted(tools, key=lambda n: (rank.get(n, len(rank)), position[n]))
    return [tools[name] for name in names]


def annotated(tools: list[Tool], messages: list[Any], session: Any) -> list[Any]:
    """``messages`` as the offered ``tools`` annotate them (see ``FunctionTool``), in order."""
    for tool in tools:
        annotate = getattr(tool, "annotate_context", None)
        if annotate is not None:
            messages = annotate(messages, session)
    return messages


def error_result(message: str, details: Any = None) -> ToolResult:
    """pi's error result: one text block, ``is_error``; ``details`` default to ``{}``."""
    return ToolResult.text(message, details={} if details is None else details, is_error=True)


__all__ = [
    "BUILTIN_TOOL_ORDER",
    "collect_tools",
    "error_result",
    "order_tools",
]
