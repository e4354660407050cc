"""The ``grep`` tool itself; the plugin that registers it is ``tool_grep``."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

from tether.builtin_plugins.tools._shared.filewalk import compile_glob, walk
from tether.builtin_plugins.tools._shared.listing import REFINE, limit_notice, listing_result
from tether.builtin_plugins.tools._shared.paths import optional_int, require_str, resolve_to_cwd
from tether.builtin_plugins.tools._shared.scaffold import builtin_tool, object_schema, param
from tether.builtin_plugins.tools._shared.truncate import (
    DEFAULT_MAX_BYTES,
    GREP_MAX_LINE_LENGTH,
    truncate_line,
)
from tether.tools import FunctionTool, ToolContext, ToolError, ToolResult

DEFAULT_LIMIT = 100
BINARY_SNIFF_BYTES = 8192

DESCRIPTION = (
    "Search the contents of files for a regular expression (or a literal string) and return "
    "the matching lines with their file paths and line numbers. Files ignored by .gitignore "
    f"are skipped. At most {DEFAULT_LIMIT} matches or {DEFAULT_MAX_BYTES // 1024}KB are "
    f"returned; lines longer than {GREP_MAX_LINE_LENGTH} characters are cut."
)

PARAMETERS = object_schema(
    {
        "pattern": param("string", "Regular expression, or text if literal"),
        "path": param("string", "Directory or file to search (default: cwd)"),
        "glob": param(
            "string", "Only search files matching this glob, e.g. '*.py' or 'src/**/*.ts'"
        ),
        "ignoreCase": param("boolean", "Ignore letter case (default: false)"),
        "literal": param("boolean", "Search for the pattern as plain text (default: false)"),
        "context": param("number", "Lines of context before and after each match (default: 0)"),
        "limit": param("number", f"Stop after this many matches (default: {DEFAULT_LIMIT})"),
    },
    required=["pattern"],
)


def _glob_filter(glob: str | None) -> Any:
    if not glob:
        return lambda rel: True
    negate = glob.startswith("!")
    body = glob[1:] if negate else glob
    regex = compile_glob(body.lstrip("/"))
    with_slash = "/" in body

    def accept(rel: str) -> bool:
        matched = bool(regex.match(rel if with_slash else rel.rsplit("/", 1)[-1]))
        return matched != negate

    return accept


def _files(search: str, glob: str | None) -> Iterator[tuple[str, str]]:
    """(absolute path, path shown to the model) of every file to search."""
    if not os.path.isdir(search):
        yield search, os.path.basename(search)
        return
    accept = _glob_filter(glob)
    for entry in walk(search):
        if not entry.is_dir and accept(entry.rel):
            yield entry.path, entry.rel


def _read_lines(path: str) -> list[str] | None:
    """The file's lines (CRLF and CR normalized), or ``None`` for binary/unreadable files."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    if b"\0" in data[:BINARY_SNIFF_BYTES]:
        return None
    text = data.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _compile(pattern: str, ignore_case: bool, literal: bool) -> re.Pattern[str]:
    try:
        return re.compile(re.escape(pattern) if literal else pattern, re.I if ignore_case else 0)
    except re.error as exc:
        raise ToolError(f"Invalid regular expression {pattern!r}: {exc}") from exc


def run_grep(tool_call_id: str, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    """Execute ``grep``: ``{pattern, path?, glob?, ignoreCase?, literal?, context?, limit?}``."""
    pattern = require_str(args, "pattern")
    search = resolve_to_cwd(require_str(args, "path", default=".") or ".", ctx.cwd)
    glob = args.get("glob") if isinstance(args.get("glob"), str) else None
    context = max(optional_int(args, "context") or 0, 0)
    raw_limit = optional_int(args, "limit")
    limit = max(1, DEFAULT_LIMIT if raw_limit is None else raw_limit)
    regex = _compile(pattern, bool(args.get("ignoreCase")), bool(args.get("literal")))
    if not os.path.exists(search):
        raise ToolError(f"Path not found: {search}")

    out: list[str] = []
    matches = 0
    cut_lines = False
    for path, shown in _files(search, glob):
        if ctx.signal.aborted:
            raise ToolError("Operation aborted")
        lines = _read_lines(path)
        if not lines:
            continue
        for number, line in enumerate(lines, start=1):
            if not regex.search(line):
                continue
            matches += 1
            first = max(1, number - context)
            last = min(len(lines), number + context)
            for current in range(first, last + 1):
                text, was_cut = truncate_line(lines[current - 1], GREP_MAX_LINE_LENGTH)
                cut_lines = cut_lines or was_cut
                sep = ":" if current == number else "-"
                out.append(f"{shown}{sep}{current}{sep} {text}")
            if matches >= limit:
                break
        if matches >= limit:
            break

    if matches == 0:
        return ToolResult.text("No matches found")
    reached = limit_notice(limit, "matches", "matchLimitReached", REFINE)
    long_lines = (
        f"Some lines truncated to {GREP_MAX_LINE_LENGTH} chars. Use read tool to see full lines",
        "linesTruncated",
        True,
    )
    return listing_result(
        out, reached if matches >= limit else None, long_lines if cut_lines else None
    )


def make_grep_tool() -> FunctionTool:
    snippet = "Search inside files for a regex or text (skips .gitignore'd files)"
    return builtin_tool("grep", run_grep, DESCRIPTION, PARAMETERS, snippet)
