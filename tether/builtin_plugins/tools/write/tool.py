"""The ``write`` tool itself; the plugin that registers it is ``tool_write``."""

from __future__ import annotations

import os
from typing import Any

from tether.builtin_plugins.tools._shared.paths import (
    file_mutation_lock,
    require_str,
    resolve_to_cwd,
)
from tether.builtin_plugins.tools._shared.scaffold import builtin_tool, object_schema, param
from tether.builtin_plugins.tools._shared.truncate import utf8_len
from tether.tools import FunctionTool, ToolContext, ToolError, ToolResult

DESCRIPTION = (
    "Write a whole file: creates it (and any missing parent directories) or replaces its contents."
)

PARAMETERS = object_schema(
    {
        "path": param("string", "File to write, absolute or relative to cwd"),
        "content": param("string", "The complete new contents of the file"),
    },
    required=["path", "content"],
)


def run_write(tool_call_id: str, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    """Execute ``write``: ``{path, content}``."""
    path = require_str(args, "path")
    content = require_str(args, "content")
    if ctx.signal.aborted:
        raise ToolError("Operation aborted")
    absolute = resolve_to_cwd(path, ctx.cwd)
    with file_mutation_lock(absolute):
        try:
            os.makedirs(os.path.dirname(absolute) or ".", exist_ok=True)
            with open(absolute, "w", encoding="utf-8", newline="") as handle:
                handle.write(content)
        except OSError as exc:
            raise ToolError(f"Could not write {path}: {exc.strerror or exc}") from exc
    # pi reports the string length here; tether reports the real number of UTF-8 bytes.
    return ToolResult.text(f"Successfully wrote {utf8_len(content)} bytes to {path}")


def make_write_tool() -> FunctionTool:
    snippet = "Create a file or replace all of its contents"
    guidelines = ["Reserve write for new files and full rewrites; change existing files with edit."]
    return builtin_tool("write", run_write, DESCRIPTION, PARAMETERS, snippet, guidelines)
