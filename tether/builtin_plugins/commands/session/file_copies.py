"""Session files made from other files: a linear export and a cross-project fork.

- :func:`export_jsonl` (``tether session export``) — pi's ``exportToJsonl``: the current branch
  re-chained into a linear file.
- :func:`fork_from` (``tether chat/run --fork``) — another project's session (migrated first,
  unlike pi) copied into a new session of this project.

Both write through the store ``open_store`` gives for the new path, and never into an
existing file.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tether import Session, SessionFileError
from tether.sessions import default_session_dir, session_file_name
from tether.storage import CURRENT_SESSION_VERSION, iso_now, make_header, open_store


def export_jsonl(
    source: Any,
    output: str | os.PathLike[str] | None = None,
    *,
    header: dict[str, Any] | None = None,
) -> Path:
    """Write ``source``'s current branch, ``parentId`` re-chained into one line, under a fresh
    header (pi's: same session id, now, cwd; or ``header``, e.g. a new id)."""
    if output is None:
        output = f"session-{iso_now().replace(':', '-').replace('.', '-')}.jsonl"
    path = Path(os.path.abspath(output))
    header = header or {
        "type": "session",
        "version": CURRENT_SESSION_VERSION,
        "id": source.session_id,
        "timestamp": iso_now(),
        "cwd": source.cwd,
    }
    linear: list[dict[str, Any]] = []
    previous: str | None = None
    for entry in source.get_branch():
        linear.append({**entry, "parentId": previous})
        previous = entry.get("id")
    if os.path.lexists(path):
        raise SessionFileError(f"{path}: already exists; refusing to overwrite")
    open_store(path, plugins=source.plugins).append(linear, header=header)
    return path


def fork_from(
    source: str | os.PathLike[str],
    target_cwd: str,
    session_dir: str | os.PathLike[str] | None = None,
    *,
    home: Path | None = None,
    plugins: Any = None,
) -> Session:
    """Copy every entry of ``source`` (migrated in memory; the source file is not touched) into a
    new session of ``target_cwd`` with ``parentSession`` = the source path; written at once."""
    source_path = Path(os.path.abspath(source))
    original = Session.open(source_path, readonly=True, plugins=plugins)
    plugins = original.plugins  # the manager it was opened with
    if not original.on_disk:
        raise SessionFileError(f"{source_path}: cannot fork: the source session is empty")
    folder = Path(session_dir) if session_dir else default_session_dir(target_cwd, home)
    header = make_header(target_cwd, parent_session=str(source_path))
    path = folder / session_file_name(header["timestamp"], header["id"])
    fsync = getattr(original.store, "fsync", None)
    store = open_store(path, plugins=plugins, fsync=fsync)
    store.append(original.entries(), header=header)  # the header alone for an empty one
    return Session.open(path, cwd=target_cwd, session_dir=folder, store=store, plugins=plugins)


__all__ = ["export_jsonl", "fork_from"]
