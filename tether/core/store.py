"""Session storage: the :class:`SessionStore` protocol and the JSONL file implementation.

:class:`JsonlStore` owns one append-only JSONL file (pi's format) and is careful with it:

- every append takes an exclusive ``flock`` on the file, so concurrent writers never
  interleave; a file replaced by an atomic rewrite meanwhile is detected and reopened;
- appends are fsynced unless ``fsync=False`` (setting ``session.fsync``, ``TETHER_FSYNC=0``);
- an append into a file that grew since this store last read or wrote it (a writer that took
  no session lease) is refused, not made on a stale leaf (:mod:`.store_guard`);
- a torn last line (a crash mid-write) is moved into ``<file>.torn-<time>`` with a warning
  before the next append, never glued to new data; a valid last line lacking its newline
  gets one;
- the header is written with the first records, and only if the file is still empty — a
  session never gets a second header (pi's bug §13.1 #1);
- a file whose first record is not a session header is never written to: ``FILE:LINE: not a
  tether/pi session header (…)``;
- v1/v2 files are migrated to v3 in memory on load, and on disk before the first append by
  an atomic rewrite (temp file, fsync, rename) after the original is copied to
  ``<file>.v<N>.bak``; merely opening a file never changes it.
"""

from __future__ import annotations

import fcntl
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Protocol, runtime_checkable

from tether.core.errors import SessionFileError
from tether.core.fileio import (
    file_stamp,
    fsync_dir,
    last_line_start,
    read_fd,
    read_first_line,
    unique_sidecar,
    write_all,
    write_file_durably,
)
from tether.core.format import dumps_record
from tether.core.jsonl_index import EntryTable, Problem, parse_json_line
from tether.core.jsonl_scan import ScannedFile, scan_bytes, scan_stream
from tether.core.migration import IdFactory, MigratedRecord, header_version, migrate
from tether.core.store_guard import MISSING, KnownFile, check_unchanged

Warn = Callable[[str], None]


@dataclass
class LoadedSession:
    """What a store read: the header (``None`` for a new/empty session), entries, problems."""

    header: dict[str, Any] | None
    table: EntryTable
    exists: bool = False
    version_on_disk: float | None = None
    migrated: bool = False
    backup: Path | None = None
    notes: list[str] = field(default_factory=list)
    pending_rewrite: tuple[bytes, bytes] | None = None  # (sha256 of the original, new content)

    @property
    def problems(self) -> list[Problem]:
        return self.table.problems


@runtime_checkable
class SessionStore(Protocol):
    """Where a session's records live. ``append`` must be atomic per call and durable."""

    @property
    def uri(self) -> str: ...

    @property
    def path(self) -> Path | None:
        """The session file, if the backend has one (used for ``parentSession``)."""

    def load(self, *, readonly: bool = False) -> LoadedSession:
        """Read the session; migrate old versions (not when ``readonly``)."""

    def append(
        self,
        records: Sequence[Mapping[str, Any]],
        *,
        header: Mapping[str, Any],
        header_written: bool = False,
    ) -> None:
        """Append records; write ``header`` first if the storage holds none yet. With
        ``header_written`` (the session was read from this storage) an empty storage is an
        error: it was emptied or removed behind the session's back."""


def fsync_default() -> bool:
    """``TETHER_FSYNC`` (``0``/``false``/``no``/``off`` disable) or on."""
    raw = os.environ.get("TETHER_FSYNC")
    return raw is None or raw.strip().lower() not in ("0", "false", "no", "off")


def _stderr_warning(message: str) -> None:
    sys.stderr.write(f"tether: warning: {message}\n")


class JsonlStore:
    """One pi-format JSONL session file (see the module docstring for the guarantees)."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        fsync: bool | None = None,
        on_warning: Warn | None = None,
        id_factory: IdFactory | None = None,
    ) -> None:
        self._path = Path(os.path.abspath(os.fspath(path)))
        self.fsync = fsync_default() if fsync is None else fsync
        self.on_warning = on_warning or _stderr_warning
        self.id_factory = id_factory
        self.known: KnownFile | None = None  # the file as last read/written (store_guard)

    @property
    def uri(self) -> str:
        return str(self._path)

    @property
    def path(self) -> Path:
        return self._path

    def __repr__(self) -> str:
        return f"JsonlStore({str(self._path)!r})"

    # ---- reading ----------------------------------------------------------------------------

    def _open_for_reading(self) -> IO[bytes] | None:
        try:
            return open(self._path, "rb")
        except FileNotFoundError:
            return None
        except IsADirectoryError:
            raise SessionFileError(f"{self._path}: is a directory, not a session file") from None
        except NotADirectoryError:
            raise SessionFileError(f"{self._path}: a parent folder is not a directory") from None
        except OSError as exc:
            raise SessionFileError(f"{self._path}: cannot read: {exc.strerror}") from None

    def read_bytes(self) -> bytes | None:
        """The file's bytes; ``None`` if it does not exist; clear errors otherwise."""
        handle = self._open_for_reading()
        if handle is None:
            return None
        try:
            with handle:
                return handle.read()
        except OSError as exc:
            raise SessionFileError(f"{self._path}: cannot read: {exc.strerror}") from None

    def _header_failure(self, scanned: ScannedFile) -> SessionFileError:
        line = scanned.header_lineno or 1
        why = scanned.header_error or "no JSON record found"
        return SessionFileError(f"{self._path}:{line}: not a tether/pi session header ({why})")

    def scan(self, *, validate_all: bool = False) -> ScannedFile | None:
        """Index the file as it is (no migration); ``None`` if it is missing or blank.
        Raises ``FILE:LINE: not a tether/pi session header (…)`` when it has no header."""
        handle = self._open_for_reading()
        if handle is None:
            self.known = MISSING
            return None
        try:
            with handle:
                scanned, content = scan_stream(handle, validate_all=validate_all)
                self.known = KnownFile.of(os.fstat(handle.fileno()), handle.tell())
        except OSError as exc:
            raise SessionFileError(f"{self._path}: cannot read: {exc.strerror}") from None
        if not content:
            return None
        if scanned.header is None:
            raise self._header_failure(scanned)
        return scanned

    def load(self, *, readonly: bool = False, validate_all: bool = False) -> LoadedSession:
        """Read and index the file. A v1/v2 file is migrated in memory; the file itself is
        rewritten (atomically, with a backup) only before the first append — opening a session
        to look at it never modifies it. ``readonly`` only marks the intent (no commit ever).

        A missing file or one holding only whitespace is a new session (``header=None``).
        """
        scanned = self.scan(validate_all=validate_all)
        if scanned is None:
            return LoadedSession(None, EntryTable(), exists=self._path.exists())
        assert scanned.header is not None
        version = header_version(scanned.header)
        if version >= 3:
            return LoadedSession(scanned.header, scanned.table, True, version)
        data = self.read_bytes() or b""
        lines, _ = self._migrated_lines(data)
        content = b"".join(line + b"\n" for line in lines)
        migrated = scan_bytes(content)
        if migrated.header is None:
            raise self._header_failure(migrated)
        carried = [p for p in scanned.table.problems if p.kind in ("malformed", "torn")]
        migrated.table.problems[:0] = carried
        note = (
            f"v{version:g} session migrated to v3 in memory (the file is rewritten on first write)"
        )
        loaded = LoadedSession(migrated.header, migrated.table, True, version, True, None, [note])
        if not readonly:
            import hashlib

            loaded.pending_rewrite = (hashlib.sha256(data).digest(), content)
        return loaded

    def commit_migration(self, loaded: LoadedSession) -> Path | None:
        """Write a migration done by :meth:`load` to disk: the original goes to
        ``<file>.v<N>.bak``, the migrated content replaces it atomically. Refuses if the file
        changed since it was loaded. Returns the backup path (``None`` if nothing to do)."""
        if loaded.pending_rewrite is None:
            return None
        import hashlib

        digest, content = loaded.pending_rewrite
        with self._locked() as fd:
            data = read_fd(fd)
            if hashlib.sha256(data).digest() != digest:
                raise SessionFileError(
                    f"{self._path}: changed on disk since it was loaded; reopen it before writing"
                )
            backup = unique_sidecar(self._path, f".v{loaded.version_on_disk:g}.bak")
            try:
                write_file_durably(backup, data, fsync=self.fsync)
            except OSError as exc:
                raise SessionFileError(f"{backup}: cannot write a backup: {exc.strerror}") from None
            self._replace(content, fd)
        loaded.pending_rewrite = None
        loaded.backup = backup
        self.on_warning(
            f"{self._path}: migrated v{loaded.version_on_disk:g} → v3 "
            f"(original kept in {backup.name})"
        )
        return backup

    def _migrated_lines(self, data: bytes) -> tuple[list[bytes], float]:
        """Migrate every readable record (malformed lines are dropped, as pi's rewrite does)."""
        items: list[MigratedRecord] = []
        for raw in data.split(b"\n"):
            if not raw.strip():
                continue
            try:
                record = parse_json_line(raw)
            except ValueError:
                continue
            if isinstance(record, dict):
                items.append(MigratedRecord(record, raw.strip()))
        version = header_version(items[0].record) if items else 3
        migrate(items, self.id_factory)
        return [item.line() for item in items], version

    # ---- writing ----------------------------------------------------------------------------

    @contextmanager
    def _locked(self, *, create: bool = False) -> Iterator[int]:
        """An fd of the current file under an exclusive lock (reopened if replaced meanwhile)."""
        flags = os.O_RDWR | os.O_APPEND | os.O_CLOEXEC | (os.O_CREAT if create else 0)
        while True:
            try:
                fd = os.open(self._path, flags, 0o644)
            except IsADirectoryError:
                raise SessionFileError(
                    f"{self._path}: is a directory, not a session file"
                ) from None
            except OSError as exc:
                raise SessionFileError(
                    f"{self._path}: cannot open for writing: {exc.strerror}"
                ) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                opened = os.fstat(fd)
                try:
                    current = os.stat(self._path)
                except FileNotFoundError:
                    current = None
                if current is None or (current.st_ino, current.st_dev) != (
                    opened.st_ino,
                    opened.st_dev,
                ):
                    continue  # replaced or removed by someone else's rewrite: take the new one
                yield fd
                return
            finally:
                os.close(fd)

    def append(
        self,
        records: Sequence[Mapping[str, Any]],
        *,
        header: Mapping[str, Any],
        header_written: bool = False,
    ) -> None:
        """Append ``records`` (one line each) under the lock; the header goes first if the file
        is empty. Refuses to write into a file whose first record is another session's, or
        into an emptied/removed file when ``header_written`` says it held this session."""
        payload = b"".join((dumps_record(r) + "\n").encode("utf-8") for r in records)
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SessionFileError(
                f"{self._path}: cannot create the session folder: {exc.strerror}"
            ) from None
        created = not self._path.exists()
        with self._locked(create=not header_written) as fd:
            check_unchanged(self._path, fd, self.known)
            size = os.fstat(fd).st_size
            prefix = b""
            if size and not read_first_line(fd).strip() and not read_fd(fd).strip():
                os.ftruncate(fd, 0)  # only blank lines: nothing to keep
                size = 0
            if size == 0 and header_written:
                raise SessionFileError(
                    f"{self._path}: was emptied or removed after the session was read; "
                    "not writing a partial session (the entries are still in memory)"
                )
            if size == 0:
                prefix = (dumps_record(header) + "\n").encode("utf-8")
            elif not payload:
                return
            else:
                self._check_header(fd, header)
                prefix = self._settle_tail(fd, size)
            try:
                write_all(fd, prefix + payload)
                if self.fsync:
                    os.fsync(fd)
            except OSError as exc:
                raise SessionFileError(f"{self._path}: cannot append: {exc.strerror}") from None
            finally:
                self.known = KnownFile.of(os.fstat(fd))  # our own bytes, even a torn tail
        if created and self.fsync:
            fsync_dir(self._path.parent)

    def _check_header(self, fd: int, header: Mapping[str, Any]) -> None:
        first = read_first_line(fd)
        try:
            record = parse_json_line(first)
        except ValueError:
            record = None
        if not isinstance(record, dict) or record.get("type") != "session":
            raise SessionFileError(
                f"{self._path}:1: not a tether/pi session header; refusing to append"
            )
        if record.get("id") != header.get("id"):
            raise SessionFileError(
                f"{self._path}:1: belongs to session {record.get('id')!r}, not "
                f"{header.get('id')!r}; refusing to append"
            )

    def _settle_tail(self, fd: int, size: int) -> bytes:
        """Make sure the file ends with a newline; set a torn last line aside. Returns a prefix."""
        if os.pread(fd, 1, size - 1) == b"\n":
            return b""
        start = last_line_start(fd, size)
        tail = os.pread(fd, size - start, start)
        try:
            parse_json_line(tail)
            return b"\n"  # a complete record that only lacks its newline
        except ValueError:
            pass
        sidecar = unique_sidecar(self._path, f".torn-{file_stamp()}")
        write_file_durably(sidecar, tail, fsync=self.fsync)
        os.ftruncate(fd, start)
        if self.fsync:
            os.fsync(fd)
        self.on_warning(
            f"{self._path}: the last line was incomplete (a torn write, {len(tail)} bytes); "
            f"moved it to {sidecar.name} before appending"
        )
        return b""

    def _replace(self, data: bytes, locked_fd: int) -> None:
        """Atomically replace the file's content (temp + fsync + rename) while holding its lock."""
        mode = os.fstat(locked_fd).st_mode & 0o7777
        temp = unique_sidecar(self._path, f".tmp-{os.getpid()}")
        try:
            write_file_durably(temp, data, fsync=self.fsync, mode=mode)
            known = KnownFile.of(os.stat(temp))
            os.replace(temp, self._path)
            self.known = known
        except OSError as exc:
            temp.unlink(missing_ok=True)
            raise SessionFileError(f"{self._path}: cannot rewrite: {exc.strerror}") from None
        if self.fsync:
            fsync_dir(self._path.parent)

    def rewrite(self, data: bytes, *, backup_suffix: str, expected: bytes | None = None) -> Path:
        """Replace the whole file atomically, keeping the old bytes in a backup; returns it.
        With ``expected``, refuse if the file no longer holds exactly those bytes."""
        with self._locked() as fd:
            old = read_fd(fd)
            if expected is not None and old != expected:
                raise SessionFileError(f"{self._path}: changed on disk meanwhile; nothing written")
            backup = unique_sidecar(self._path, backup_suffix)
            write_file_durably(backup, old, fsync=self.fsync)
            self._replace(data, fd)
        return backup


__all__ = [
    "JsonlStore",
    "LoadedSession",
    "SessionStore",
    "fsync_default",
    "unique_sidecar",
    "write_file_durably",
]
