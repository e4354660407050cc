"""The file lists a summary carries (pi's ``details.readFiles``/``modifiedFiles`` format).

A compaction or branch summary ends with ``<read-files>``/``<modified-files>`` blocks and
stores the same lists in its ``details``. The operations come from the strategy (built-in:
``tether.FileOps``, :mod:`tether.hookspecs.file_ops`); paths are kept verbatim;
lists are sorted in JavaScript's default order (UTF-16 code units) so files written by tether
equal pi's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _js_order(path: str) -> bytes:
    return path.encode("utf-16-be", "surrogatepass")


def file_lists(ops: Any) -> tuple[list[str], list[str]]:
    """``(readFiles, modifiedFiles)`` of ``ops``: a ``tether.FileOps`` (its ``read``,
    ``written`` and ``edited`` paths) or its JSON form.

    modified = edited ∪ written, read = read − modified; both sorted in JS order.
    """
    if isinstance(ops, Mapping):
        read, written, edited = (ops.get(key, ()) for key in ("read", "written", "edited"))
    else:
        read, written, edited = ops.read, ops.written, ops.edited
    modified = dict.fromkeys([*edited, *written])
    read_only = [p for p in dict.fromkeys(read) if p not in modified]
    return sorted(read_only, key=_js_order), sorted(modified, key=_js_order)


def format_file_lists(read_files: list[str], modified_files: list[str]) -> str:
    """The suffix appended to a summary: ``"\\n\\n<read-files>…"`` (``""`` when both are empty)."""
    sections = []
    if read_files:
        sections.append("<read-files>\n" + "\n".join(read_files) + "\n</read-files>")
    if modified_files:
        sections.append("<modified-files>\n" + "\n".join(modified_files) + "\n</modified-files>")
    return "\n\n" + "\n\n".join(sections) if sections else ""


__all__ = ["file_lists", "format_file_lists"]
