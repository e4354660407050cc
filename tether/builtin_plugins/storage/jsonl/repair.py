"""Repair a damaged session file without losing a byte.

Every line that is not a readable record (malformed JSON, a torn last line, a JSON value that
is not an object, a v2/v3 entry without an id) is moved, as it was, into
``<file>.damaged-<time>``; every readable line is kept byte-for-byte, in order. v1 entries have
no ids by design (they get them from the migration, which repair leaves to the first write), so
they are never "damaged". A file whose first record is not a session header gets a new header
(the damaged first line goes to the sidecar). The file is then replaced atomically (through a
symlink, at its target), the original kept in ``<file>.bak-<time>``. A healthy file of any
version is not touched. Duplicate ids are reported, not changed (pi's later-one-wins is kept).
A UTF-8 BOM before the header is kept: pi reads such a file and tether appends to it. An empty
(whitespace-only) file is an error, as for every command that reads a session.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tether import SessionFileError
from tether.builtin_plugins.storage.format.migration import BOM, header_version
from tether.builtin_plugins.storage.format.stringify import dumps_line
from tether.builtin_plugins.storage.jsonl.files.fileio import file_stamp, unique_sidecar
from tether.builtin_plugins.storage.jsonl.files.filesafety import write_sidecar
from tether.builtin_plugins.storage.jsonl.scan.scanner import ScannedFile, scan_bytes
from tether.builtin_plugins.storage.jsonl.store import JsonlStore
from tether.storage import Problem, iso_now, make_header, parse_json_line

DAMAGE_KINDS = frozenset({"malformed", "torn", "not-an-entry"})


@dataclass
class RepairReport:
    """What :func:`repair_file` did (``changed`` is False when the file was healthy)."""

    path: Path
    changed: bool = False
    moved_lines: list[int] = field(default_factory=list)
    new_header: bool = False
    added_newline: bool = False
    sidecar: Path | None = None
    backup: Path | None = None
    problems: list[Problem] = field(default_factory=list)
    version: float = 3

    def notes(self) -> list[str]:
        """What repair saw but leaves alone (duplicate ids, an old format version)."""
        out = [p.message for p in self.problems if p.kind == "duplicate-id"]
        if self.version < 3:
            out.append(
                f"v{self.version:g} format: read as v3 (migrated in memory); the file is "
                "rewritten as v3, with a backup, on the first write"
            )
        return out

    def summary(self) -> str:
        notes = "".join(f"\n{self.path}: note: {note}" for note in self.notes())
        if not self.changed:
            return f"{self.path}: nothing to repair" + notes
        parts = []
        if self.moved_lines:
            lines = ", ".join(str(n) for n in self.moved_lines[:20])
            more = "…" if len(self.moved_lines) > 20 else ""
            parts.append(
                f"moved {len(self.moved_lines)} damaged line(s) ({lines}{more}) to "
                f"{self.sidecar.name if self.sidecar else '?'}"
            )
        if self.new_header:
            parts.append("wrote a new session header")
        if self.added_newline:
            parts.append("added the missing final newline")
        backup = self.backup.name if self.backup else "?"
        return f"{self.path}: " + "; ".join(parts) + f" (original kept in {backup})" + notes


def _damaged_lines(scanned: ScannedFile, lines: list[bytes], offset: int) -> set[int]:
    """Line numbers (in the original file) that no reader can use. In a v1 file an entry
    without an id is normal (the migration gives it one)."""
    legacy = scanned.header is not None and header_version(scanned.header) < 2
    damaged = set()
    for problem in scanned.problems:
        line = problem.line - offset
        if problem.kind not in DAMAGE_KINDS or line < 1:
            continue
        if legacy and problem.kind == "not-an-entry":
            try:
                record = parse_json_line(lines[line - 1])
            except ValueError:
                record = None
            if isinstance(record, dict):
                continue
        damaged.add(line)
    return damaged


def repair_file(store: Any, *, cwd: str | None = None) -> RepairReport:
    """Repair the file of ``store`` (a :class:`JsonlStore`, as ``open_store`` gives for a
    path) in place (see the module docstring); ``cwd`` for a new header."""
    if not isinstance(store, JsonlStore):
        raise SessionFileError(f"{store.uri}: repair works on JSONL session files only")
    data = store.read_bytes()
    if data is None:
        raise SessionFileError(f"{store.path}: no such session file")
    if not data.strip().removeprefix(BOM).strip():  # nothing to keep, nothing to repair
        raise SessionFileError(f"{store.path}: empty file (no session header)")
    report = RepairReport(store.path)
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    scanned = scan_bytes(data, validate_all=True)
    header_line: bytes | None = None
    offset = 0
    invalid_header: set[int] = set()
    if scanned.header is None:
        if scanned.header_error.startswith('"id"'):  # a header record without an id
            invalid_header.add(scanned.header_lineno)
        header = make_header(cwd or os.getcwd(), timestamp=iso_now())
        header_line = dumps_line(header)
        scanned = scan_bytes(header_line + data, validate_all=True)
        offset = 1
        report.new_header = True
    damaged = sorted(_damaged_lines(scanned, lines, offset) | invalid_header)
    if scanned.header is not None and offset == 0:
        first = scanned.header_lineno
        damaged = [n for n in damaged if n != first]
        report.version = header_version(scanned.header)
    report.problems = list(scanned.problems)
    report.moved_lines = damaged
    report.added_newline = not data.endswith(b"\n") and (len(lines) not in damaged)
    if not damaged and not report.new_header and not report.added_newline:
        return report
    drop = set(damaged)
    kept = [line for n, line in enumerate(lines, 1) if n not in drop and line.strip()]
    content = (header_line or b"") + b"".join(line + b"\n" for line in kept)
    if damaged:
        sidecar = unique_sidecar(store.target, f".damaged-{file_stamp()}")
        moved = b"".join(lines[n - 1] + b"\n" for n in damaged)
        write_sidecar(sidecar, moved, fsync=store.fsync, what="damaged lines")
        report.sidecar = sidecar
    try:
        report.backup = store.rewrite(content, backup_suffix=f".bak-{file_stamp()}", expected=data)
    except SessionFileError:
        if report.sidecar is not None:
            report.sidecar.unlink(missing_ok=True)
        raise
    report.changed = True
    return report


__all__ = ["RepairReport", "repair_file"]
