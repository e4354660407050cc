"""The ``read`` tool itself; the plugin that registers it is ``tool_read``."""

from __future__ import annotations

import os
from typing import Any

from tether.builtin_plugins.tools._shared.paths import optional_int, require_str, resolve_read_path
from tether.builtin_plugins.tools._shared.scaffold import builtin_tool, object_schema, param
from tether.builtin_plugins.tools._shared.truncate import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_LINES,
    format_size,
    truncate_head,
    utf8_len,
)
from tether.builtin_plugins.tools.read.images import OMITTED_NOTE, prepare_image, sniff_image_mime
from tether.tools import FunctionTool, ToolContext, ToolError, ToolResult

DESCRIPTION = (
    "Read a file. Text comes back as lines, at most "
    f"{DEFAULT_MAX_LINES} lines or {DEFAULT_MAX_BYTES // 1024}KB per call, whichever comes "
    "first; a notice tells where to continue with offset. Images (png, jpg, gif, webp) are "
    "returned as image attachments. For large files, page through with offset and limit."
)

PARAMETERS = object_schema(
    {
        "path": param("string", "File to read, absolute or relative to cwd"),
        "offset": param("number", "First line to return (1-based)"),
        "limit": param("number", "How many lines to return at most"),
    },
    required=["path"],
)


def _read_bytes(absolute: str) -> bytes:
    if not os.path.exists(absolute):
        raise ToolError(f"File not found: {absolute}")
    if os.path.isdir(absolute):
        raise ToolError(f"Cannot read {absolute}: it is a directory (use ls to list it)")
    try:
        with open(absolute, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise ToolError(f"Cannot read {absolute}: {exc.strerror or exc}") from exc


def _image_result(raw: bytes, mime: str) -> ToolResult:
    prepared = prepare_image(raw, mime)
    if prepared is None:
        return ToolResult.text(f"Read image file [{mime}]\n{OMITTED_NOTE}")
    note = f"Read image file [{prepared.mime}]"
    dimension = prepared.dimension_note()
    if dimension:
        note += f"\n{dimension}"
    return ToolResult(
        [
            {"type": "text", "text": note},
            {"type": "image", "data": prepared.data, "mimeType": prepared.mime},
        ]
    )


def _text_result(text: str, path: str, offset: int | None, limit: int | None) -> ToolResult:
    lines = text.split("\n")
    start = max(0, offset - 1) if offset else 0
    first = start + 1
    if start >= len(lines):
        raise ToolError(f"Offset {offset} is beyond end of file ({len(lines)} lines total)")
    if limit is not None:
        end = min(start + max(limit, 0), len(lines))
        selected = "\n".join(lines[start:end])
    else:
        end = None
        selected = "\n".join(lines[start:])
    cut = truncate_head(selected)
    details: dict[str, Any] | None = None
    if cut.first_line_exceeds_limit:
        size = format_size(utf8_len(lines[start]))
        out = (
            f"[Line {first} is {size}, exceeds {format_size(DEFAULT_MAX_BYTES)} limit. "
            f"Use bash: sed -n '{first}p' {path} | head -c {DEFAULT_MAX_BYTES}]"
        )
        details = {"truncation": cut.to_json()}
    elif cut.truncated:
        last = first + cut.output_lines - 1
        limit_note = (
            "" if cut.truncated_by == "lines" else f" ({format_size(DEFAULT_MAX_BYTES)} limit)"
        )
        out = (
            f"{cut.content}\n\n[Showing lines {first}-{last} of {len(lines)}{limit_note}. "
            f"Use offset={last + 1} to continue.]"
        )
        details = {"truncation": cut.to_json()}
    elif end is not None and end < len(lines):
        remaining = len(lines) - end
        out = (
            f"{cut.content}\n\n[{remaining} more lines in file. Use offset={end + 1} to continue.]"
        )
    else:
        out = cut.content
    return ToolResult.text(out, details=details)


def run_read(tool_call_id: str, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    """Execute ``read``: ``{path, offset?, limit?}``."""
    path = require_str(args, "path")
    offset = optional_int(args, "offset")
    limit = optional_int(args, "limit")
    if ctx.signal.aborted:
        raise ToolError("Operation aborted")
    absolute = resolve_read_path(path, ctx.cwd)
    raw = _read_bytes(absolute)
    mime = sniff_image_mime(raw[:16])
    if mime is not None:
        return _image_result(raw, mime)
    return _text_result(raw.decode("utf-8", "replace"), path, offset, limit)


def make_read_tool() -> FunctionTool:
    snippet = "Show a file's contents (text or image)"
    guidelines = ["Look at files with read rather than cat, head or sed."]
    return builtin_tool("read", run_read, DESCRIPTION, PARAMETERS, snippet, guidelines)
