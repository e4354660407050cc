"""tether's features, each a plugin declared as an entry point of the ``tether`` distribution.

Modules whose name starts with ``_`` are shared helpers, not plugins. The few helpers below are
shared by built-ins of different kinds (commands, stores, tools, memory); they live here, in the
package every built-in loads, so that loading a plugin loads no helper module.
"""

from __future__ import annotations

from dataclasses import fields
from functools import cache
from os import PathLike
from typing import Any


def file_error_line(name: str | PathLike[str], exc: OSError, doing: str, kind: str = "file") -> str:
    """``NAME: is a directory, not a KIND``, ``NAME: a parent folder is not a directory`` or
    ``NAME: cannot DOING: REASON`` for the ``exc`` of opening or reading ``name`` (a missing
    file is each caller's own case: a new session, an error of its own)."""
    if isinstance(exc, IsADirectoryError):
        return f"{name}: is a directory, not a {kind}"
    if isinstance(exc, NotADirectoryError):
        return f"{name}: a parent folder is not a directory"
    return f"{name}: cannot {doing}: {exc.strerror or exc}"


@cache
def _keys(cls: type) -> tuple[tuple[str, str], ...]:
    """``(attribute, camelCase key)`` of each field of the dataclass ``cls``, in order."""
    pairs = []
    for field in fields(cls):
        head, *rest = field.name.split("_")
        pairs.append((field.name, head + "".join(word.title() for word in rest)))
    return tuple(pairs)


def camel_json(obj: Any) -> dict[str, Any]:
    """The fields of the dataclass ``obj``, in order, keyed by their camelCase names
    (``total_lines`` → ``totalLines``)."""
    return {key: getattr(obj, name) for name, key in _keys(type(obj))}


__all__ = ["camel_json", "file_error_line"]
