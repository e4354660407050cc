"""Finding sessions on disk: the list, the most recent one, a session by id prefix.

One notion of "most recent" (design §8.14): a session's ``modified`` time is the timestamp of
its last entry (read from the end of the file), else its header's timestamp, else the file's
mtime. ``--continue``, ``--resume`` and the session list all sort by it, so the session
``--continue`` picks is the first one listed. (pi ranks ``--continue`` by file mtime among files
whose header fits in 512 bytes, and its list by the last message time — §13.1 #6.)

Only the header line and the tail of each file are read: listing stays fast for large files.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tether.core.errors import UsageError
from tether.core.format import date_parse_ms
from tether.core.paths import default_session_dir, sessions_root

HEADER_LIMIT = 1 << 20
TAIL_CHUNK = 64 << 10


@dataclass
class SessionSummary:
    """What the list shows without parsing the whole file."""

    path: Path
    id: str
    cwd: str
    created: str
    modified_ms: int
    parent_session: str | None = None


def _first_record(handle: Any) -> dict[str, Any] | None:
    line = handle.readline(HEADER_LIMIT)
    while line and not line.strip():
        line = handle.readline(HEADER_LIMIT)
    try:
        record = json.loads(line.lstrip(b"\xef\xbb\xbf")) if line.strip() else None
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


def _last_timestamp(handle: Any, size: int) -> int | None:
    """The timestamp (ms) of the last parsable entry line, reading backwards in chunks."""
    chunk = TAIL_CHUNK
    while True:
        start = max(0, size - chunk)
        handle.seek(start)
        lines = handle.read(size - start).split(b"\n")
        if start > 0:
            lines = lines[1:]  # the first piece may be a partial line
        for raw in reversed(lines):
            if not raw.strip():
                continue
            try:
                record = json.loads(raw)
            except ValueError:
                continue
            if isinstance(record, dict) and record.get("type") != "session":
                stamp = date_parse_ms(record.get("timestamp"))
                if stamp is not None:
                    return stamp
        if start == 0:
            return None
        chunk *= 4


def read_summary(path: str | os.PathLike[str]) -> SessionSummary | None:
    """The summary of a session file, or ``None`` if it is not one (no valid header)."""
    path = Path(path)
    try:
        with open(path, "rb") as handle:
            header = _first_record(handle)
            if not header or header.get("type") != "session":
                return None
            if not isinstance(header.get("id"), str):
                return None
            size = os.fstat(handle.fileno()).st_size
            modified = _last_timestamp(handle, size)
            mtime = int(os.fstat(handle.fileno()).st_mtime * 1000)
    except OSError:
        return None
    created = header.get("timestamp") if isinstance(header.get("timestamp"), str) else ""
    if modified is None:
        modified = date_parse_ms(created) or mtime
    parent = header.get("parentSession")
    return SessionSummary(
        path=path,
        id=header["id"],
        cwd=header.get("cwd") if isinstance(header.get("cwd"), str) else "",
        created=created,
        modified_ms=modified,
        parent_session=parent if isinstance(parent, str) else None,
    )


def list_sessions(folder: str | os.PathLike[str]) -> list[SessionSummary]:
    """Sessions in one folder (not recursive), most recent first."""
    folder = Path(folder)
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".jsonl"))
    except OSError:
        return []
    found = [s for s in (read_summary(folder / n) for n in names) if s is not None]
    found.sort(key=lambda s: (s.modified_ms, str(s.path)), reverse=True)
    return found


def list_all_sessions(home: Path | None = None) -> list[SessionSummary]:
    """Sessions of every project under ``<home>/sessions``, most recent first."""
    root = sessions_root(home)
    try:
        folders = [root / n for n in os.listdir(root) if (root / n).is_dir()]
    except OSError:
        return []
    found = [s for folder in folders for s in list_sessions(folder)]
    found.sort(key=lambda s: (s.modified_ms, str(s.path)), reverse=True)
    return found


def project_folder(cwd: str, settings: Any = None, home: Path | None = None) -> Path:
    """Where the sessions of ``cwd`` live: setting ``session.dir`` or the per-project folder."""
    configured = getattr(getattr(settings, "session", None), "dir", None)
    if configured:
        return Path(os.path.expanduser(configured))
    return default_session_dir(cwd, home)


def most_recent_session(folder: str | os.PathLike[str]) -> SessionSummary | None:
    """The first session of :func:`list_sessions` (what ``--continue`` opens)."""
    sessions = list_sessions(folder)
    return sessions[0] if sessions else None


def looks_like_path(ref: str) -> bool:
    """pi's rule: a ``/`` or ``\\`` or a ``.jsonl`` ending makes ``--session`` a path."""
    return "/" in ref or "\\" in ref or ref.endswith(".jsonl")


def find_session(ref: str, folder: Path, home: Path | None = None) -> Path:
    """``--session PATH|ID``: a path as is, else an id prefix — this project first, then all."""
    if looks_like_path(ref):
        path = Path(os.path.expanduser(ref))
        if not path.exists():
            raise UsageError(f"{path}: no such session file")
        return path
    for pool in (list_sessions(folder), list_all_sessions(home)):
        hits = [s for s in pool if s.id.startswith(ref)]
        if len({s.path for s in hits}) == 1:
            return hits[0].path
        if hits:
            ids = ", ".join(sorted({s.id for s in hits})[:5])
            raise UsageError(f"session id prefix '{ref}' is ambiguous: {ids}")
    raise UsageError(f"no session with an id starting with '{ref}' (see: tether sessions --all)")


__all__ = [
    "SessionSummary",
    "find_session",
    "list_all_sessions",
    "list_sessions",
    "looks_like_path",
    "most_recent_session",
    "project_folder",
    "read_summary",
]
