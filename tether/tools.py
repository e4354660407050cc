"""The public toolkit for tool plugins: the tool contract, the error a tool raises for the
model to read, the registered tools in prompt order, and pi's JavaScript string rules (tool
output is truncated in UTF-16 units, as pi does). See docs/plugins.md ("Public modules").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tether._lazy import lazy_exports

if TYPE_CHECKING:  # the exports: what type checkers see, and what lazy_exports reads
    from tether.builtin_plugins.storage.format.jscompat import js_len, js_number, js_slice
    from tether.builtin_plugins.tools.recall.replaced import entry_text
    from tether.core.agent.tools import annotated, collect_tools, order_tools
    from tether.hookspecs.tools import FunctionTool, ToolContext, ToolError, ToolResult

__getattr__, __dir__ = lazy_exports(__name__, globals())
