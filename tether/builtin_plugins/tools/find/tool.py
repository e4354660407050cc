"""The ``find`` tool itself; the plugin that registers it is ``tool_find``."""

from __future__ import annotations

from typing import Any

from tether.builtin_plugins.tools._shared.filewalk import compile_glob, walk
from tether.builtin_plugins.tools._shared.listing import REFINE, limit_notice, listing_result
from tether.builtin_plugins.tools._shared.paths import (
    optional_int,
    require_directory,
    require_str,
    resolve_to_cwd,
)
from tether.builtin_plugins.tools._shared.scaffold import builtin_tool, object_schema, param
from tether.builtin_plugins.tools._shared.truncate import DEFAULT_MAX_BYTES
from tether.tools import FunctionTool, ToolContext, ToolError, ToolResult

DEFAULT_LIMIT = 1000

DESCRIPTION = (
    "Find files by glob pattern. Returns paths relative to the search directory; files "
    f"ignored by .gitignore are skipped. At most {DEFAULT_LIMIT} results or "
    f"{DEFAULT_MAX_BYTES // 1024}KB are returned."
)

PARAMETERS = object_schema(
    {
        "pattern": param("string", "Glob to match, e.g. '*.py', '**/*.json' or 'src/**/test_*.py'"),
        "path": param("string", "Directory to search (default: cwd)"),
        "limit": param("number", f"Most results to return (default: {DEFAULT_LIMIT})"),
    },
    required=["pattern"],
)


def _matcher(pattern: str) -> tuple[Any, str]:
    """(compiled glob, what it is matched against: "name" | "rel" | "abs")."""
    if "/" not in pattern:
        return compile_glob(pattern), "name"
    if pattern.startswith("/"):
        return compile_glob(pattern), "abs"
    if not pattern.startswith("**/") and pattern != "**":
        pattern = f"**/{pattern}"
    return compile_glob(pattern), "rel"


def run_find(tool_call_id: str, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    """Execute ``find``: ``{pattern, path?, limit?}``."""
    pattern = require_str(args, "pattern")
    search = resolve_to_cwd(require_str(args, "path", default=".") or ".", ctx.cwd)
    raw_limit = optional_int(args, "limit")
    limit = max(1, DEFAULT_LIMIT if raw_limit is None else raw_limit)
    require_directory(search)
    regex, target = _matcher(pattern)

    results: list[str] = []
    for entry in walk(search):
        if ctx.signal.aborted:
            raise ToolError("Operation aborted")
        subject = {"name": entry.rel.rsplit("/", 1)[-1], "rel": entry.rel, "abs": entry.path}
        if regex.match(subject[target]):
            results.append(entry.rel + ("/" if entry.is_dir else ""))
            if len(results) >= limit:
                break

    if not results:
        return ToolResult.text("No files found matching pattern")
    reached = limit_notice(limit, "results", "resultLimitReached", REFINE)
    return listing_result(results, reached if len(results) >= limit else None)


def make_find_tool() -> FunctionTool:
    snippet = "Locate files by glob pattern (skips .gitignore'd files)"
    return builtin_tool("find", run_find, DESCRIPTION, PARAMETERS, snippet)
