"""The ``ls`` tool itself; the plugin that registers it is ``tool_ls``."""

from __future__ import annotations

import os
from typing import Any

from tether.builtin_plugins.tools._shared.listing import limit_notice, listing_result
from tether.builtin_plugins.tools._shared.paths import (
    optional_int,
    require_directory,
    require_str,
    resolve_to_cwd,
)
from tether.builtin_plugins.tools._shared.scaffold import builtin_tool, object_schema, param
from tether.builtin_plugins.tools._shared.truncate import DEFAULT_MAX_BYTES
from tether.tools import FunctionTool, ToolContext, ToolError, ToolResult

DEFAULT_LIMIT = 500

DESCRIPTION = (
    "List the entries of a directory, sorted by name, directories marked with a trailing '/', "
    f"hidden files included. At most {DEFAULT_LIMIT} entries or {DEFAULT_MAX_BYTES // 1024}KB "
    "are returned."
)

PARAMETERS = object_schema(
    {
        "path": param("string", "Directory to list (default: cwd)"),
        "limit": param("number", f"Most entries to return (default: {DEFAULT_LIMIT})"),
    }
)


def run_ls(tool_call_id: str, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    """Execute ``ls``: ``{path?, limit?}``."""
    directory = resolve_to_cwd(require_str(args, "path", default=".") or ".", ctx.cwd)
    raw_limit = optional_int(args, "limit")
    limit = DEFAULT_LIMIT if raw_limit is None else raw_limit
    if ctx.signal.aborted:
        raise ToolError("Operation aborted")
    require_directory(directory)
    try:
        names = os.listdir(directory)
    except OSError as exc:
        raise ToolError(f"Cannot read directory: {exc.strerror or exc}") from exc
    names.sort(key=lambda n: (n.lower(), n))

    entries: list[str] = []
    limit_reached = False
    for name in names:
        if len(entries) >= limit:
            limit_reached = True
            break
        try:
            suffix = "/" if os.path.isdir(os.path.join(directory, name)) else ""
            os.stat(os.path.join(directory, name))
        except OSError:
            continue  # e.g. a dangling symlink: pi skips entries it cannot stat
        entries.append(name + suffix)

    if not entries:
        return ToolResult.text("(empty directory)")
    reached = limit_notice(limit, "entries", "entryLimitReached")
    return listing_result(entries, reached if limit_reached else None)


def make_ls_tool() -> FunctionTool:
    snippet = "List what a directory contains"
    return builtin_tool("ls", run_ls, DESCRIPTION, PARAMETERS, snippet)
