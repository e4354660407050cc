"""The ``edit`` tool itself; the plugin that registers it is ``tool_edit``."""

from __future__ import annotations

import errno
import json
import os
from typing import Any

from tether.builtin_plugins.tools._shared.paths import (
    file_mutation_lock,
    require_str,
    resolve_to_cwd,
)
from tether.builtin_plugins.tools._shared.scaffold import builtin_tool, object_schema, param
from tether.builtin_plugins.tools.edit.diff import (
    apply_edits,
    detect_line_ending,
    normalize_to_lf,
    numbered_diff,
)
from tether.tools import FunctionTool, ToolContext, ToolError, ToolResult

DESCRIPTION = (
    "Change one file by exact text replacement. Each edits[].oldText must match one unique "
    "region of the current file, and the regions must not overlap; combine changes that touch "
    "neighbouring lines into a single edit. Do not copy large unchanged regions into oldText."
)

PARAMETERS = object_schema(
    {
        "path": param("string", "File to edit, absolute or relative to cwd"),
        "edits": {
            **param(
                "array",
                "Replacements, all matched against the original file. They must not overlap.",
            ),
            "items": object_schema(
                {
                    "oldText": param(
                        "string", "Text to replace; must occur exactly once in the file"
                    ),
                    "newText": param("string", "Text to put in its place"),
                },
                required=["oldText", "newText"],
                closed=True,
            ),
        },
    },
    required=["path", "edits"],
    closed=True,
)

BOM = "\ufeff"


def normalize_edit_arguments(args: dict[str, Any]) -> dict[str, Any]:
    """Accept what models send besides the schema: ``edits`` as a JSON string and the older
    top-level ``oldText``/``newText`` pair (appended to ``edits``)."""
    args = dict(args)
    if isinstance(args.get("edits"), str):
        try:
            parsed = json.loads(args["edits"])
        except ValueError:
            parsed = None
        if isinstance(parsed, list):
            args["edits"] = parsed
    if isinstance(args.get("oldText"), str) and isinstance(args.get("newText"), str):
        edits = list(args["edits"]) if isinstance(args.get("edits"), list) else []
        edits.append({"oldText": args.pop("oldText"), "newText": args.pop("newText")})
        args["edits"] = edits
    return args


def _edit_pairs(args: dict[str, Any]) -> list[tuple[str, str]]:
    edits = args.get("edits")
    if not isinstance(edits, list) or not edits:
        raise ToolError("Edit tool input is invalid. edits must contain at least one replacement.")
    pairs = []
    for i, edit in enumerate(edits):
        old = edit.get("oldText") if isinstance(edit, dict) else None
        new = edit.get("newText") if isinstance(edit, dict) else None
        if not isinstance(old, str) or not isinstance(new, str):
            raise ToolError(f"edits[{i}] must be an object with string oldText and newText")
        pairs.append((old, new))
    return pairs


def _read_for_edit(absolute: str, path: str) -> str:
    try:
        if not os.access(absolute, os.R_OK | os.W_OK):
            code = errno.ENOENT if not os.path.exists(absolute) else errno.EACCES
            raise ToolError(f"Could not edit file: {path}. Error code: {errno.errorcode[code]}.")
        with open(absolute, "rb") as handle:
            return handle.read().decode("utf-8", "replace")
    except IsADirectoryError as exc:
        raise ToolError(f"Could not edit file: {path}. Error code: EISDIR.") from exc
    except OSError as exc:
        name = errno.errorcode.get(exc.errno or 0, str(exc))
        raise ToolError(f"Could not edit file: {path}. Error code: {name}.") from exc


def run_edit(tool_call_id: str, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    """Execute ``edit``: ``{path, edits: [{oldText, newText}, ...]}``."""
    args = normalize_edit_arguments(args)
    path = require_str(args, "path")
    pairs = _edit_pairs(args)
    if ctx.signal.aborted:
        raise ToolError("Operation aborted")
    absolute = resolve_to_cwd(path, ctx.cwd)
    with file_mutation_lock(absolute):
        raw = _read_for_edit(absolute, path)
        bom = BOM if raw.startswith(BOM) else ""
        text = raw[len(bom) :]
        ending = detect_line_ending(text)
        base, new = apply_edits(normalize_to_lf(text), pairs, path)
        if ctx.signal.aborted:
            raise ToolError("Operation aborted")
        final = bom + (new.replace("\n", "\r\n") if ending == "\r\n" else new)
        with open(absolute, "w", encoding="utf-8", newline="") as handle:
            handle.write(final)
    diff, first_changed = numbered_diff(base, new)
    details = {"diff": diff, "firstChangedLine": first_changed}
    return ToolResult.text(
        f"Successfully replaced {len(pairs)} block(s) in {path}.", details=details
    )


def make_edit_tool() -> FunctionTool:
    snippet = "Replace exact text in a file; several separate replacements per call"
    guidelines = [
        "edit replaces text only when edits[].oldText matches the file exactly.",
        "For several changes in one file, send one edit call whose edits[] lists them all.",
        "Every edits[].oldText is looked up in the file as it was before the call; edits "
        "must not overlap, so merge changes to neighbouring lines into one edit.",
        "Make each edits[].oldText just long enough to be unique; leave out unchanged "
        "surroundings.",
    ]
    return builtin_tool("edit", run_edit, DESCRIPTION, PARAMETERS, snippet, guidelines)
