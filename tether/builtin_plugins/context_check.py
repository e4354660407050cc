"""Warnings about a loaded context: malformed messages and non-finite usage numbers.

The built-in plugin ``context_check`` answers the ``context_warnings`` hook: run once when a
session is bound to the harness. Each finding names ``FILE:LINE`` and the field; nothing is
changed (requests repair or leave out what they must, see
:mod:`tether.builtin_plugins.providers.message_check`, and a non-finite usage number counts as
absent).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

from tether.hookspecs import hookimpl

Message = dict[str, Any]


def _findings(message: Any, message_issues: Any) -> list[tuple[str, str]]:
    out = list(message_issues(message))
    if isinstance(message, dict) and message.get("role") == "assistant":
        usage = message.get("usage")
        if isinstance(usage, dict):
            for path, value in non_finite_paths(usage, "message.usage"):
                out.append((path, f"not a finite number ({_describe(value)}); treated as absent"))
    return out


def _lines(session: Any, wanted: set[int]) -> dict[int, int]:
    """``id(message)`` → line number, for the stored messages in ``wanted``."""
    table = getattr(session, "table", None)
    if table is None:
        return {}
    out: dict[int, int] = {}
    for entry_id in session.branch_ids():
        row = table.row_of(entry_id)
        if row is None or table.types[row] != "message":
            continue
        message = table.entry(row).get("message")
        if id(message) in wanted:
            out[id(message)] = table.linenos[row]
    return out


@hookimpl
def context_warnings(session: Any, messages: Sequence[Message]) -> list[str]:
    """The ``context_warnings`` hook: ``FILE:LINE: field: problem`` for the context's
    messages (``messages`` as built)."""
    from tether.builtin_plugins.providers.message_check import message_issues

    bad = [(m, found) for m in messages if (found := _findings(m, message_issues))]
    if not bad:
        return []
    lines = _lines(session, {id(message) for message, _ in bad})
    file = getattr(session, "file", None) or "(session)"
    out = []
    for message, found in bad:
        line = lines.get(id(message))
        where = f"{file}:{line}" if line else f"{file}"
        out.extend(f"{where}: {field}: {problem}" for field, problem in found)
    return out


def non_finite_paths(value: Any, path: str = "") -> Iterator[tuple[str, float]]:
    """``(field path, value)`` of every non-finite number in a JSON value."""
    if isinstance(value, float):
        if not math.isfinite(value):
            yield path or "(value)", value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from non_finite_paths(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from non_finite_paths(item, f"{path}[{index}]")


def _describe(value: float) -> str:
    return "NaN" if value != value else ("-inf" if value < 0 else "inf")


__all__ = ["context_warnings", "non_finite_paths"]
