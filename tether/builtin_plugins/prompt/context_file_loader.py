"""Project context files: ``AGENTS.md`` / ``CLAUDE.md`` instructions for the system prompt.

Like pi's ``loadProjectContextFiles``: the tether home's file first, then one file per
directory from the filesystem root down to ``cwd`` (outermost first, ``cwd`` last). In each
directory the first readable of :data:`CONTEXT_FILE_NAMES` is used; a path already taken is
skipped. Contents are inserted verbatim.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

CONTEXT_FILE_NAMES: tuple[str, ...] = ("AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD")


@dataclass(frozen=True)
class ContextFile:
    """One instructions file: its absolute path and its text."""

    path: str
    content: str


def _first_in(directory: Path, warnings: list[str] | None) -> ContextFile | None:
    for name in CONTEXT_FILE_NAMES:
        candidate = directory / name
        if not candidate.is_file():
            continue
        try:
            return ContextFile(str(candidate), candidate.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            if warnings is not None:
                warnings.append(f"{candidate}: cannot read context file: {exc}")
    return None


def load_context_files(
    cwd: str | Path, home: str | Path | None = None, *, warnings: list[str] | None = None
) -> list[ContextFile]:
    """The context files for ``cwd``: ``home``'s first, then root → ``cwd``.

    Unreadable files are reported in ``warnings`` (when given) and the next name is tried.
    """
    found: list[ContextFile] = []
    seen: set[str] = set()

    def add(item: ContextFile | None) -> None:
        if item is None:
            return
        key = os.path.realpath(item.path)
        if key not in seen:
            seen.add(key)
            found.append(item)

    if home is not None:
        add(_first_in(Path(home), warnings))
    here = Path(os.path.abspath(cwd))
    chain = [here, *here.parents]
    for directory in reversed(chain):
        add(_first_in(directory, warnings))
    return found


__all__ = ["CONTEXT_FILE_NAMES", "ContextFile", "load_context_files"]
