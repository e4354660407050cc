"""Listing sessions and finding the most recent one — with one notion of "most recent".

pi ranks ``/resume`` by the last message time but ``--continue`` by file mtime, and skips files
whose header line is longer than 512 bytes. tether uses one measure for both,
:func:`last_activity`: the timestamp of the last entry in the file (read from its tail, no full
parse), else the header's timestamp, else the file's mtime.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tether.builtin_plugins.storage.format.message_text import message_text
from tether.builtin_plugins.storage.format.session_info import session_info_json
from tether.builtin_plugins.storage.jsonl.files.fileio import last_line_start, read_first_line
from tether.storage import date_parse_ms, iso_from_ms, parse_json_object

_TAIL_LINES = 32


def read_header(path: Path) -> dict[str, Any] | None:
    """The session header of ``path`` (first non-blank line), or ``None`` if it has none."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        line = read_first_line(fd).strip()
    except OSError:
        return None
    finally:
        os.close(fd)
    if line.startswith(b"\xef\xbb\xbf"):
        line = line[3:]
    record = parse_json_object(line)
    if record is not None and record.get("type") == "session":
        return record if isinstance(record.get("id"), str) else None
    return None


def _last_entry_ms(path: Path) -> int | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        end = os.fstat(fd).st_size
        for _ in range(_TAIL_LINES):
            if end <= 0:
                return None
            start = last_line_start(fd, end)
            raw = os.pread(fd, end - start, start).strip()
            end = start - 1
            record = parse_json_object(raw)  # a blank or malformed line: look further back
            if record is not None and record.get("type") != "session":
                ms = date_parse_ms(record.get("timestamp"))
                if ms is not None:
                    return ms
        return None
    except OSError:
        return None
    finally:
        os.close(fd)


def last_activity(path: Path, header: dict[str, Any] | None = None) -> int:
    """Epoch ms of the session's last activity (see the module docstring)."""
    ms = _last_entry_ms(path)
    if ms is None:
        header = header if header is not None else read_header(path)
        ms = date_parse_ms(header.get("timestamp")) if header else None
    if ms is None:
        try:
            ms = int(path.stat().st_mtime * 1000)
        except OSError:
            ms = 0
    return ms


def session_files(folder: Path) -> list[Path]:
    """``*.jsonl`` files directly in ``folder`` (none if it does not exist)."""
    try:
        return sorted(p for p in folder.iterdir() if p.suffix == ".jsonl" and p.is_file())
    except OSError:
        return []


def most_recent_session(folder: Path) -> Path | None:
    """The session file in ``folder`` with the latest :func:`last_activity` (valid headers only)."""
    best: tuple[int, float, str] | None = None
    found = None
    for path in session_files(folder):
        header = read_header(path)
        if header is None:
            continue
        try:
            mtime = path.stat().st_mtime
        except OSError:
            continue
        key = (last_activity(path, header), mtime, path.name)
        if best is None or key > best:
            best, found = key, path
    return found


@dataclass
class SessionInfo:
    """pi's ``SessionInfo``; ``modified`` is :func:`last_activity`."""

    path: str
    id: str
    cwd: str
    name: str | None
    parent_session_path: str | None
    created: str
    modified: str
    message_count: int
    first_message: str
    all_messages_text: str

    def to_json(self) -> dict[str, Any]:
        return session_info_json(
            {"path": self.path},
            self,
            self.parent_session_path,
            firstMessage=self.first_message,
            allMessagesText=self.all_messages_text,
        )


def session_info(path: Path) -> SessionInfo | None:
    """Read one session for a listing (``None`` if it is not a readable session)."""
    from tether import Session, TetherError
    from tether.builtin_plugins.storage.jsonl.store import JsonlStore

    try:  # a file of this store's own listing: its own store (no open_store round trip)
        session = Session.open(path, readonly=True, store=JsonlStore(path))
    except TetherError:
        return None
    table = session.table
    first = ""
    texts: list[str] = []
    count = 0
    for row, kind in enumerate(table.types):
        if kind != "message":
            continue
        count += 1
        role = table.role(row)
        if role not in ("user", "assistant"):
            continue
        message = table.entry(row).get("message")
        text = message_text(message) if isinstance(message, dict) else ""
        if text:
            texts.append(text)
            if role == "user" and not first:
                first = text
    header = session.header
    parent = header.get("parentSession")
    created = header.get("timestamp")
    return SessionInfo(
        path=str(path),
        id=session.session_id,
        cwd=header.get("cwd") if isinstance(header.get("cwd"), str) else "",
        name=session.session_name,
        parent_session_path=parent if isinstance(parent, str) else None,
        created=created if isinstance(created, str) else "",
        modified=iso_from_ms(last_activity(path, header)),
        message_count=count,
        first_message=first or "(no messages)",
        all_messages_text=" ".join(texts),
    )


def list_sessions(folders: Iterable[Path]) -> list[SessionInfo]:
    """Every readable session in ``folders`` (not recursive), most recent first."""
    infos = [info for folder in folders for p in session_files(folder) if (info := session_info(p))]
    infos.sort(key=lambda info: info.modified, reverse=True)
    return infos


def project_folders(root: Path) -> list[Path]:
    """Every project folder under a sessions root (``--all``), plus the root itself."""
    try:
        subdirs = sorted(p for p in root.iterdir() if p.is_dir())
    except OSError:
        return []
    return [root, *subdirs]


__all__ = [
    "SessionInfo",
    "last_activity",
    "list_sessions",
    "most_recent_session",
    "project_folders",
    "read_header",
    "session_files",
    "session_info",
]
