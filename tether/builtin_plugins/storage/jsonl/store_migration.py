"""v1/v2 files in the JSONL store: migrated in memory on load, on disk before the first write.

:func:`load_legacy` gives the v3 view of an old file (its content is migrated by
:mod:`tether.builtin_plugins.storage.format.migration`, with ids derived from the session id, so
every read shows
the same ids). Unless read-only, the migrated bytes wait in ``LoadedSession.pending_rewrite``
until :func:`commit_migration`: the original is copied to ``<file>.v<N>.bak``, then replaced
atomically under the store's lock — refused if the file changed since it was loaded.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Protocol

from tether import SessionFileError
from tether.builtin_plugins.storage.format.migration import IdFactory, migrate_bytes
from tether.builtin_plugins.storage.jsonl.files.fileio import read_fd, unique_sidecar
from tether.builtin_plugins.storage.jsonl.files.filesafety import write_sidecar
from tether.builtin_plugins.storage.jsonl.scan.scanner import ScannedFile, scan_bytes
from tether.storage import LoadedSession


class MigratingStore(Protocol):
    """What the migration needs of
    :class:`~tether.builtin_plugins.storage.jsonl.store.JsonlStore`."""

    id_factory: IdFactory | None
    fsync: bool
    on_warning: Callable[[str], None]

    @property
    def path(self) -> Path: ...

    @property
    def target(self) -> Path: ...

    def read_bytes(self) -> bytes | None: ...

    def locked(self, *, create: bool = False) -> AbstractContextManager[int]: ...

    def replace_locked(self, data: bytes, locked_fd: int) -> None: ...


def header_failure(path: str | os.PathLike[str], scanned: ScannedFile) -> SessionFileError:
    """``FILE:LINE: not a tether/pi session header (why)``."""
    line = scanned.header_lineno or 1
    why = scanned.header_error or "no JSON record found"
    return SessionFileError(f"{path}:{line}: not a tether/pi session header ({why})")


def load_legacy(
    store: MigratingStore, scanned: ScannedFile, version: float, *, readonly: bool
) -> LoadedSession:
    """The v3 view of the v1/v2 file ``scanned`` (problems of unreadable lines carried over)."""
    data = store.read_bytes() or b""
    content = migrate_bytes(data, store.id_factory)
    migrated = scan_bytes(content)
    if migrated.header is None:
        raise header_failure(store.path, migrated)
    carried = [p for p in scanned.table.problems if p.kind in ("malformed", "torn")]
    migrated.table.problems[:0] = carried
    note = f"v{version:g} session migrated to v3 in memory (the file is rewritten on first write)"
    loaded = LoadedSession(migrated.header, migrated.table, True, version, True, None, [note])
    if not readonly:
        import hashlib  # legacy files only

        loaded.pending_rewrite = (hashlib.sha256(data).digest(), content)
    return loaded


def commit_migration(store: MigratingStore, loaded: LoadedSession) -> Path | None:
    """Write the migration :func:`load_legacy` prepared: the original goes to
    ``<file>.v<N>.bak``, the migrated content replaces it atomically. Refuses if the file
    changed since it was loaded. Returns the backup path (``None`` if nothing to do)."""
    if loaded.pending_rewrite is None:
        return None
    digest, content = loaded.pending_rewrite
    with store.locked() as fd:
        data = read_fd(fd)
        import hashlib

        if hashlib.sha256(data).digest() != digest:
            raise SessionFileError(
                f"{store.path}: changed on disk since it was loaded; reopen it before writing"
            )
        backup = unique_sidecar(store.target, f".v{loaded.version_on_disk:g}.bak")
        write_sidecar(backup, data, fsync=store.fsync, what="backup")
        try:
            store.replace_locked(content, fd)
        except SessionFileError:
            backup.unlink(missing_ok=True)  # the original is still in place
            raise
    loaded.pending_rewrite = None
    loaded.backup = backup
    store.on_warning(
        f"{store.path}: migrated v{loaded.version_on_disk:g} → v3 (original kept in {backup.name})"
    )
    return backup


__all__ = ["MigratingStore", "commit_migration", "header_failure", "load_legacy"]
