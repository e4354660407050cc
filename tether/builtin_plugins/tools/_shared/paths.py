"""Path handling shared by the file tools: ``~`` and ``@`` prefixes, cwd-relative paths,
look-alike file names, and one lock per real file so edits and writes never interleave."""

from __future__ import annotations

import os
import re
import threading
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tether.tools import ToolError

_UNICODE_SPACES = re.compile("[\u00a0\u2000-\u200a\u202f\u205f\u3000]")
_NARROW_NBSP = "\u202f"
_AM_PM = re.compile(r" (AM|PM)\.", re.IGNORECASE)


def expand_path(path: str) -> str:
    """Strip a leading ``@``, turn exotic spaces into spaces, expand ``~``."""
    if path.startswith("@"):
        path = path[1:]
    path = _UNICODE_SPACES.sub(" ", path)
    if path == "~" or path.startswith("~/"):
        return os.path.expanduser("~") + path[1:]
    return path


def resolve_to_cwd(path: str, cwd: str) -> str:
    """Absolute path of ``path`` (relative paths are relative to ``cwd``)."""
    expanded = expand_path(path)
    if os.path.isabs(expanded):
        return os.path.normpath(expanded)
    return os.path.normpath(os.path.join(cwd, expanded))


def resolve_read_path(path: str, cwd: str) -> str:
    """Like :func:`resolve_to_cwd`, but tries the spellings macOS uses for screenshot names
    (narrow space before AM/PM, NFD, curly apostrophe) when the plain path does not exist."""
    resolved = resolve_to_cwd(path, cwd)
    if os.path.exists(resolved):
        return resolved
    nfd = unicodedata.normalize("NFD", resolved)
    for variant in (
        _AM_PM.sub(lambda m: f"{_NARROW_NBSP}{m.group(1)}.", resolved),
        nfd,
        resolved.replace("'", "\u2019"),
        nfd.replace("'", "\u2019"),
    ):
        if variant != resolved and os.path.exists(variant):
            return variant
    return resolved


def require_directory(path: str) -> None:
    """Raise the :class:`ToolError` pi gives when ``path`` is missing or not a directory."""
    if not os.path.exists(path):
        raise ToolError(f"Path not found: {path}")
    if not os.path.isdir(path):
        raise ToolError(f"Not a directory: {path}")


def require_str(args: dict[str, Any], name: str, *, default: str | None = None) -> str:
    """A string argument, or a :class:`ToolError` naming it."""
    value = args.get(name, default)
    if not isinstance(value, str):
        raise ToolError(f"Argument '{name}' must be a string")
    return value


def optional_int(args: dict[str, Any], name: str) -> int | None:
    """An optional whole-number argument (JSON numbers may arrive as floats)."""
    value = args.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ToolError(f"Argument '{name}' must be a number")
    return int(value)


_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()


@contextmanager
def file_mutation_lock(path: str) -> Iterator[None]:
    """Serialize edits and writes of one real file (pi's per-file mutation queue)."""
    key = os.path.realpath(path)
    with _locks_guard:
        lock = _locks.setdefault(key, threading.Lock())
    with lock:
        yield


__all__ = [
    "expand_path",
    "file_mutation_lock",
    "optional_int",
    "require_str",
    "resolve_read_path",
    "resolve_to_cwd",
]
