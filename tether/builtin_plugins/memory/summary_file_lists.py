"""A summary without its file lists (:func:`strip_file_lists`); the file operations they are
made of are the contract's :class:`~tether.hookspecs.file_ops.FileOps` (``tether.FileOps``)."""

from __future__ import annotations

import re

_LISTS_SUFFIX = re.compile(
    r"(?:\n\n<read-files>\n(?:[^\n]*\n)*?</read-files>)?"
    r"(?:\n\n<modified-files>\n(?:[^\n]*\n)*?</modified-files>)?\Z"
)


def strip_file_lists(summary: str) -> str:
    """``summary`` without its trailing ``<read-files>``/``<modified-files>`` blocks."""
    match = _LISTS_SUFFIX.search(summary)
    return summary[: match.start()] if match else summary


__all__ = ["strip_file_lists"]
