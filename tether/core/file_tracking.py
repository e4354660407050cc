"""The file lists a summary carries (pi's ``details.readFiles``/``modifiedFiles`` format).

A compaction or branch summary ends with ``<read-files>``/``<modified-files>`` blocks and
stores the same lists in its ``details``. Only assistant tool calls named ``read``, ``write``
or ``edit`` with a non-empty string ``path`` count; paths are kept verbatim; lists are sorted
in JavaScript's default order (UTF-16 code units) so files written by tether equal pi's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

_TOOL_TO_OPERATION = {"read": "read", "write": "written", "edit": "edited"}

FileOps = dict[str, list[str]]
"""``{"read": [...], "written": [...], "edited": [...]}`` in first-seen order."""


def empty_file_ops() -> FileOps:
    return {"read": [], "written": [], "edited": []}


def _add(ops: FileOps, operation: str, path: str) -> None:
    paths = ops.setdefault(operation, [])
    if path not in paths:
        paths.append(path)


def add_message_file_ops(ops: FileOps, message: Mapping[str, Any]) -> None:
    """Add the read/write/edit tool calls of an assistant ``message`` to ``ops``."""
    if message.get("role") != "assistant" or not isinstance(message.get("content"), list):
        return
    for block in message["content"]:
        if not isinstance(block, dict) or block.get("type") != "toolCall":
            continue
        operation = _TOOL_TO_OPERATION.get(str(block.get("name")))
        args = block.get("arguments")
        if operation and isinstance(args, dict):
            path = args.get("path")
            if isinstance(path, str) and path:
                _add(ops, operation, path)


def add_details_file_ops(ops: FileOps, details: Any) -> None:
    """Fold an earlier summary's ``details`` lists in (read → read, modified → edited)."""
    if not isinstance(details, Mapping):
        return
    for key, operation in (("readFiles", "read"), ("modifiedFiles", "edited")):
        paths = details.get(key)
        if isinstance(paths, list):
            for path in paths:
                if isinstance(path, str):
                    _add(ops, operation, path)


def file_ops_of(messages: Iterable[Mapping[str, Any]]) -> FileOps:
    ops = empty_file_ops()
    for message in messages:
        add_message_file_ops(ops, message)
    return ops


def _js_order(path: str) -> bytes:
    return path.encode("utf-16-be", "surrogatepass")


def file_lists(ops: Mapping[str, Iterable[str]]) -> tuple[list[str], list[str]]:
    """``(readFiles, modifiedFiles)``: modified = edited ∪ written, read = read − modified."""
    modified = dict.fromkeys([*ops.get("edited", ()), *ops.get("written", ())])
    read_only = [p for p in dict.fromkeys(ops.get("read", ())) if p not in modified]
    return sorted(read_only, key=_js_order), sorted(modified, key=_js_order)


def format_file_lists(read_files: list[str], modified_files: list[str]) -> str:
    """The suffix appended to a summary: ``"\\n\\n<read-files>…"`` (``""`` when both are empty)."""
    sections = []
    if read_files:
        sections.append("<read-files>\n" + "\n".join(read_files) + "\n</read-files>")
    if modified_files:
        sections.append("<modified-files>\n" + "\n".join(modified_files) + "\n</modified-files>")
    return "\n\n" + "\n\n".join(sections) if sections else ""


_LISTS_SUFFIX = re.compile(
    r"(?:\n\n<read-files>\n(?:[^\n]*\n)*?</read-files>)?"
    r"(?:\n\n<modified-files>\n(?:[^\n]*\n)*?</modified-files>)?\Z"
)


def strip_file_lists(summary: str) -> str:
    """``summary`` without its trailing ``<read-files>``/``<modified-files>`` blocks."""
    match = _LISTS_SUFFIX.search(summary)
    return summary[: match.start()] if match else summary


__all__ = [
    "FileOps",
    "add_details_file_ops",
    "add_message_file_ops",
    "empty_file_ops",
    "file_lists",
    "file_ops_of",
    "format_file_lists",
    "strip_file_lists",
]
