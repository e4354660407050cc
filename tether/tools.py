"""The public toolkit for tool plugins: the tool contract, the error a tool raises for the
model to read, the registered tools in prompt order, and pi's JavaScript string rules (tool
output is truncated in UTF-16 units, as pi does). See docs/plugins.md ("Tool plugins").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tether._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "FunctionTool": "tether.core.agent.tools",
    "ToolContext": "tether.core.agent.tools",
    "ToolResult": "tether.core.agent.tools",
    "ToolError": "tether.core.agent.tools",
    "collect_tools": "tether.core.agent.tools",
    "order_tools": "tether.core.agent.tools",
    "js_len": "tether.builtin_plugins.storage.format.jscompat",
    "js_slice": "tether.builtin_plugins.storage.format.jscompat",
    "js_number": "tether.builtin_plugins.storage.format.jscompat",
    "entry_text": "tether.builtin_plugins.tools.recall.replaced",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:  # what type checkers see; at run time __getattr__ imports lazily
    from tether.builtin_plugins.storage.format.jscompat import js_len, js_number, js_slice
    from tether.builtin_plugins.tools.recall.replaced import entry_text
    from tether.core.agent.tools import (
        FunctionTool,
        ToolContext,
        ToolError,
        ToolResult,
        collect_tools,
        order_tools,
    )

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
