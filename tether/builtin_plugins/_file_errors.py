"""Why a file could not be opened or read, as the one line a command prints: shared by the
commands that read the user's files and the stores that read and write session files."""

from __future__ import annotations

from os import PathLike


def file_error_line(name: str | PathLike[str], exc: OSError, doing: str, kind: str = "file") -> str:
    """``NAME: is a directory, not a KIND``, ``NAME: a parent folder is not a directory`` or
    ``NAME: cannot DOING: REASON`` for the ``exc`` of opening or reading ``name`` (a missing
    file is each caller's own case: a new session, an error of its own)."""
    if isinstance(exc, IsADirectoryError):
        return f"{name}: is a directory, not a {kind}"
    if isinstance(exc, NotADirectoryError):
        return f"{name}: a parent folder is not a directory"
    return f"{name}: cannot {doing}: {exc.strerror or exc}"


__all__ = ["file_error_line"]
