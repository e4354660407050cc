"""File-operation tracking for summaries (pi's read / written / edited sets).

Only assistant tool calls named ``read``, ``write`` or ``edit`` with a non-empty string
``path`` count; paths are kept verbatim. Sets keep insertion order (pi uses JS ``Set``s).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tether.builtin_plugins._jscompat import js_sort_key

_TOOL_TO_SET = {"read": "read", "write": "written", "edit": "edited"}


@dataclass
class FileOps:
    """Paths seen per operation, in first-seen order (dicts used as ordered sets)."""

    read: dict[str, None] = field(default_factory=dict)
    written: dict[str, None] = field(default_factory=dict)
    edited: dict[str, None] = field(default_factory=dict)

    def to_json(self) -> dict[str, list[str]]:
        """``{read, written, edited}`` lists, as the oracle prints them."""
        return {"read": list(self.read), "written": list(self.written), "edited": list(self.edited)}

    @classmethod
    def from_json(cls, data: dict[str, list[str]]) -> FileOps:
        """Inverse of :meth:`to_json`."""
        return cls(
            read=dict.fromkeys(data.get("read", [])),
            written=dict.fromkeys(data.get("written", [])),
            edited=dict.fromkeys(data.get("edited", [])),
        )

    def add_details(self, details: Any) -> None:
        """Fold a summary's ``details`` (``readFiles``/``modifiedFiles``) into the sets."""
        if not isinstance(details, dict):
            return
        read_files = details.get("readFiles")
        if isinstance(read_files, list):
            for path in read_files:
                self.read[path] = None
        modified = details.get("modifiedFiles")
        if isinstance(modified, list):
            for path in modified:
                self.edited[path] = None


def extract_file_ops(message: dict[str, Any], ops: FileOps) -> None:
    """Add the read/write/edit tool calls of an assistant message to ``ops``."""
    if message.get("role") != "assistant":
        return
    content = message.get("content")
    if not isinstance(content, list):
        return
    for block in content:
        if not isinstance(block, dict) or block.get("type") != "toolCall":
            continue
        target = _TOOL_TO_SET.get(block.get("name"))  # type: ignore[arg-type]
        args = block.get("arguments")
        if target is None or not isinstance(args, dict):
            continue
        path = args.get("path")
        if isinstance(path, str) and path:
            getattr(ops, target)[path] = None


def file_ops_from_messages(
    messages: Iterable[dict[str, Any]], previous_details: Any = None
) -> FileOps:
    """Cumulative file ops: a previous summary's ``details`` first, then the messages."""
    ops = FileOps()
    ops.add_details(previous_details)
    for message in messages:
        extract_file_ops(message, ops)
    return ops


def compute_file_lists(ops: FileOps) -> tuple[list[str], list[str]]:
    """``(readFiles, modifiedFiles)``: modified = edited ∪ written; read-only = read − modified.

    Both sorted in JS order (UTF-16 code units).
    """
    modified = dict.fromkeys([*ops.edited, *ops.written])
    read_only = sorted((p for p in ops.read if p not in modified), key=js_sort_key)
    return read_only, sorted(modified, key=js_sort_key)


def format_file_operations(read_files: list[str], modified_files: list[str]) -> str:
    """The ``<read-files>`` / ``<modified-files>`` suffix appended to a summary ("" if none)."""
    sections = []
    if read_files:
        sections.append("<read-files>\n" + "\n".join(read_files) + "\n</read-files>")
    if modified_files:
        sections.append("<modified-files>\n" + "\n".join(modified_files) + "\n</modified-files>")
    if not sections:
        return ""
    return "\n\n" + "\n\n".join(sections)


__all__ = [
    "FileOps",
    "compute_file_lists",
    "extract_file_ops",
    "file_ops_from_messages",
    "format_file_operations",
]
