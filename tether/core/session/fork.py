"""New sessions made from old ones: fork and clone.

- :func:`branched_copy` — pi's ``createBranchedSession``: one path into a new session, label
  entries dropped and the resolved labels re-created at the end. Unlike pi, an
  entry whose parent was a dropped label is re-parented to its nearest surviving ancestor, so
  the copied context is the original's.
- :func:`fork` (``before`` a user message) / :func:`clone` (``at`` an entry).

These functions take the session they copy from (anything shaped like :class:`SessionLike`)
and make the new session with that session's own class, so this module never imports
:mod:`tether.core.session.session` (which exposes them as methods): no import loop.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Protocol, TypeVar

from tether.core.base.errors import SessionFileError, TetherError
from tether.core.base.paths import default_session_dir, session_file_name
from tether.core.context.content_text import content_text
from tether.core.session.opening import open_store
from tether.core.storage import records as rec
from tether.core.storage.ids import new_entry_id


class SessionLike(Protocol):
    """What fork/clone read from a session (:class:`tether.core.session.session.Session`)."""

    @property
    def store(self) -> Any: ...
    @property
    def file(self) -> Path | None: ...
    @property
    def session_dir(self) -> Path | None: ...
    @property
    def cwd(self) -> str: ...
    @property
    def session_id(self) -> str: ...
    @property
    def leaf_id(self) -> str | None: ...
    def get_branch(self, leaf_id: Any = ...) -> list[dict[str, Any]]: ...
    def get_entry(self, entry_id: str) -> dict[str, Any] | None: ...
    def has_entry(self, entry_id: str) -> bool: ...
    @property
    def plugins(self) -> Any: ...
    def labels(self) -> dict[str, str]: ...
    def label_timestamps(self) -> dict[str, str | None]: ...
    def _adopt(self, entries: list[dict[str, Any]]) -> None: ...


S = TypeVar("S", bound=SessionLike)


def _new_session_like(source: S, output: Path | None, parent: str | None) -> S:
    session_type: Any = type(source)  # the new session is of the source's own class
    if source.store is None:
        return session_type.in_memory(source.cwd)  # type: ignore[no-any-return]
    header = rec.make_header(source.cwd, parent_session=parent)
    sibling = getattr(source.store, "sibling", None)
    if output is None and sibling is not None:  # a database: the new session goes there too
        return session_type(store=sibling(header["id"]), header=header, cwd=source.cwd)  # type: ignore[no-any-return]
    if output is None:
        folder = source.session_dir or default_session_dir(source.cwd)
        output = folder / session_file_name(header["timestamp"], header["id"])
    output = Path(os.path.abspath(output))
    if os.path.lexists(output):  # a dangling symlink too: never create a file elsewhere
        raise SessionFileError(f"{output}: already exists; refusing to overwrite")
    fsync = getattr(source.store, "fsync", None)
    return session_type(  # type: ignore[no-any-return]
        store=open_store(output, plugins=source.plugins, fsync=fsync),
        header=header,
        cwd=source.cwd,
        session_dir=output.parent,
        plugins=source.plugins,
    )


def branched_copy(source: S, leaf_id: str, *, output: Path | None = None) -> S:
    """A new session holding the path root → ``leaf_id`` (written now if it has an assistant
    message, else with the first one — pi's rule)."""
    path = source.get_branch(leaf_id)
    if not path:
        raise TetherError(f"Entry {leaf_id} not found")
    parent = str(source.file) if source.file is not None else getattr(source.store, "uri", None)
    target = _new_session_like(source, output, parent)
    kept: list[dict[str, Any]] = []
    dropped: set[str] = set()
    for entry in path:
        if entry.get("type") == "label":
            dropped.add(entry["id"])
            continue
        if entry.get("parentId") in dropped:  # re-parent past the dropped label(s)
            entry = dict(entry)
            entry["parentId"] = kept[-1]["id"] if kept else None
        kept.append(entry)
    kept_ids = {entry["id"] for entry in kept}
    labels = source.labels()
    stamps = source.label_timestamps()
    used = set(kept_ids)
    previous = kept[-1]["id"] if kept else None
    for target_id, label in labels.items():
        if target_id not in kept_ids:
            continue
        label_id = new_entry_id(used)
        used.add(label_id)
        record: dict[str, Any] = {"type": "label", "id": label_id, "parentId": previous}
        if stamps.get(target_id) is not None:
            record["timestamp"] = stamps[target_id]
        record["targetId"] = target_id
        record["label"] = label
        kept.append(record)
        previous = label_id
    target._adopt(kept)
    return target


def fork(
    source: SessionLike, entry_id: str, *, position: str = "before", output: Path | None = None
) -> Any:
    """``before``: ``entry_id`` must be a user message; the new session ends at its parent.
    Returns ``(session, text of that message)``. ``at``: same as :func:`clone`."""
    if position == "at":
        return clone(source, entry_id, output=output)
    if position != "before":
        raise TetherError(f"fork position must be 'before' or 'at', not {position!r}")
    entry = source.get_entry(entry_id)
    message = entry.get("message") if entry and entry.get("type") == "message" else None
    if not isinstance(message, dict) or message.get("role") != "user":
        raise TetherError(f"Invalid entry ID for forking: {entry_id} is not a user message")
    text = content_text(message.get("content"))
    parent = entry.get("parentId") if entry else None
    if not parent or not source.has_entry(parent):
        new = _new_session_like(source, output, str(source.file) if source.file else None)
        return new, text
    return branched_copy(source, parent, output=output), text


def clone(source: S, at: str | None = None, *, output: Path | None = None) -> S:
    """A new session with the path to ``at`` (default: the current leaf)."""
    leaf = at if at is not None else source.leaf_id
    if leaf is None:
        return _new_session_like(source, output, str(source.file) if source.file else None)
    return branched_copy(source, leaf, output=output)


__all__ = ["SessionLike", "branched_copy", "clone", "fork"]
