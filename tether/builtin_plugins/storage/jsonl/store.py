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
  session never gets a second header (pi can write one);
- a file without a session header is never written to (``FILE:LINE: not a … header``);
- v1/v2 files are migrated to v3 in memory on load, and on disk before the first append by
  an atomic rewrite (temp file, fsync, rename) after the original is copied to
  ``<file>.v<N>.bak``; merely opening a file never changes it (:mod:`.store_migration`);
- file-level safety (:mod:`tether.builtin_plugins.storage.jsonl.files.filesafety`): regular files
only, writes through
  symlinks to their target, private modes, a bounded wait for another process's lock,
  no partial leftovers after a failed write; a UTF-8 BOM before the header is kept (as pi).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from tether import SessionFileError
from tether.builtin_plugins import file_error_line
from tether.builtin_plugins.storage.format.line_store import LineStore
from tether.builtin_plugins.storage.format.migration import BOM, IdFactory, header_version
from tether.builtin_plugins.storage.format.stringify import dumps_record
from tether.builtin_plugins.storage.jsonl.files.fileio import (
    file_stamp,
    fsync_dir,
    last_line_start,
    read_fd,
    read_first_line,
    unique_sidecar,
    write_all,
    write_file_durably,
)
from tether.builtin_plugins.storage.jsonl.files.filesafety import (
    PRIVATE_FILE,
    lock_bounded,
    lock_timeout_default,
    make_private_dirs,
    open_regular,
    real_target,
    sweep_stale_temps,
    write_sidecar,
)
from tether.builtin_plugins.storage.jsonl.guard import MISSING, KnownFile, check_unchanged
from tether.builtin_plugins.storage.jsonl.scan.file_scan import scan_file
from tether.builtin_plugins.storage.jsonl.scan.header import first_record
from tether.builtin_plugins.storage.jsonl.scan.line_table import LineTable
from tether.builtin_plugins.storage.jsonl.scan.scanner import ScannedFile
from tether.builtin_plugins.storage.jsonl.store_migration import (
    commit_migration,
    header_failure,
    load_legacy,
)
from tether.storage import EntryBatch, EntryTable, LoadedSession, SessionStore, parse_json_line

Warn = Callable[[str], None]


def fsync_default() -> bool:
    """``TETHER_FSYNC`` (``0``/``false``/``no``/``off`` disable) or on."""
    raw = os.environ.get("TETHER_FSYNC")
    return raw is None or raw.strip().lower() not in ("0", "false", "no", "off")


def _stderr_warning(message: str) -> None:
    sys.stderr.write(f"tether: warning: {message}\n")


class JsonlStore(LineStore):
    """One pi-format JSONL session file (see the module docstring for the guarantees)."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        fsync: bool | None = None,
        on_warning: Warn | None = None,
        id_factory: IdFactory | None = None,
        lock_timeout: float | None = None,
    ) -> None:
        self._path = Path(os.path.abspath(os.fspath(path)))
        self.fsync = fsync_default() if fsync is None else fsync
        self.on_warning = on_warning or _stderr_warning
        self.id_factory = id_factory
        self.lock_timeout = lock_timeout_default() if lock_timeout is None else lock_timeout
        self._swept = False
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

    @property
    def target(self) -> Path:
        """The file writes land in (``path`` with symlinks resolved)."""
        return real_target(self._path)

    def _open_for_reading(self) -> IO[bytes] | None:
        try:
            return os.fdopen(open_regular(self._path, os.O_RDONLY), "rb")
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise SessionFileError(
                file_error_line(self._path, exc, "read", "session file")
            ) from None

    def read_bytes(self) -> bytes | None:
        """The file's bytes; ``None`` if it does not exist; clear errors otherwise."""
        handle = self._open_for_reading()
        if handle is None:
            return None
        try:
            with handle:
                return handle.read()
        except OSError as exc:
            raise SessionFileError(file_error_line(self._path, exc, "read")) from None

    def scan(self, *, validate_all: bool = False) -> ScannedFile | None:
        """Index the file as it is (no migration); ``None`` if it is missing or blank.
        Raises ``FILE:LINE: not a tether/pi session header (…)`` when it has no header."""
        handle = self._open_for_reading()
        if handle is None:
            self.known = MISSING
            return None
        try:
            with handle:
                scanned, content = scan_file(handle, str(self._path), validate_all=validate_all)
                self.known = KnownFile.of(os.fstat(handle.fileno()), handle.tell())
        except OSError as exc:
            raise SessionFileError(file_error_line(self._path, exc, "read")) from None
        if not content or (scanned.header is None and not scanned.header_error):
            return None  # blank (perhaps a lone BOM): a new session, as for pi
        if scanned.header is None:
            raise header_failure(self._path, scanned)
        return scanned

    def load(self, *, readonly: bool = False, validate_all: bool = False) -> LoadedSession:
        """Read and index the file. A v1/v2 file is migrated in memory; the file itself is
        rewritten (atomically, with a backup) only before the first append — opening a session
        to look at it never modifies it. ``readonly`` only marks the intent (no commit ever).

        A missing file or one holding only whitespace is a new session (``header=None``).
        """
        scanned = self.scan(validate_all=validate_all)
        if scanned is None:
            return LoadedSession(None, LineTable(), exists=self._path.exists())
        assert scanned.header is not None
        version = header_version(scanned.header)
        if version >= 3:
            return LoadedSession(scanned.header, scanned.table, True, version)
        return load_legacy(self, scanned, version, readonly=readonly)

    def context_batches(
        self, table: EntryTable, rows: list[int], setting_only: set[int]
    ) -> Iterator[EntryBatch]:
        """A context's entries, the fast way (:class:`~tether.hookspecs.store.
        ContextBatches`,
        :func:`~tether.builtin_plugins.storage.jsonl.context.batches.entries_of`)."""
        from tether.builtin_plugins.storage.jsonl.context.batches import entries_of

        return entries_of(table, rows, setting_only)

    def lease(self, wait: float = 0.0, **options: Any) -> Any:
        """The session's one-writer lease, acquired (a lock file beside the session file,
        :class:`~tether.builtin_plugins.storage.jsonl.files.lease.SessionLease`)."""
        from tether.builtin_plugins.storage.jsonl.files.lease import SessionLease

        return SessionLease(self._path).acquire(wait, **options)

    def commit_migration(self, loaded: LoadedSession) -> Path | None:
        """Write a migration done by :meth:`load` to disk (see :mod:`.store_migration`)."""
        return commit_migration(self, loaded)

    # ---- writing ----------------------------------------------------------------------------

    @contextmanager
    def locked(self, *, create: bool = False) -> Iterator[int]:
        """An fd of the current file under an exclusive lock (reopened if replaced meanwhile).
        For this store's own writes and :mod:`.store_migration`."""
        flags = os.O_RDWR | os.O_APPEND | (os.O_CREAT if create else 0)
        while True:
            try:
                fd = open_regular(self._path, flags, PRIVATE_FILE)
            except OSError as exc:
                line = file_error_line(self._path, exc, "open for writing", "session file")
                raise SessionFileError(line) from None
            try:
                lock_bounded(fd, self._path, self.lock_timeout, self.on_warning)
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

    def append_lines(
        self, lines: list[str], header: Mapping[str, Any], header_written: bool
    ) -> None:
        """Append ``lines`` under the lock; the header goes first if the file is empty.
        Refuses to write into a file whose first record is another session's, or into an
        emptied/removed file when ``header_written`` says it held this session."""
        payload = "".join(f"{line}\n" for line in lines).encode("utf-8")
        try:
            make_private_dirs(self._path.parent)
        except OSError as exc:
            raise SessionFileError(
                f"{self._path}: cannot create the session folder: {exc.strerror}"
            ) from None
        created = not self._path.exists()
        if not self._swept:
            self._swept = True
            sweep_stale_temps(self._path, self.on_warning)
        with self.locked(create=not header_written) as fd:
            check_unchanged(self._path, fd, self.known)
            size = os.fstat(fd).st_size
            prefix = b""
            if size and _blank(read_first_line(fd)) and _blank(read_fd(fd)):
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
            start = os.fstat(fd).st_size
            try:
                write_all(fd, prefix + payload)
                if self.fsync:
                    os.fsync(fd)
            except OSError as exc:
                _truncate_back(fd, start)
                raise SessionFileError(f"{self._path}: cannot append: {exc.strerror}") from None
            finally:
                self.known = KnownFile.of(os.fstat(fd))  # our own bytes, even a torn tail
        if created and self.fsync:
            fsync_dir(self._path.parent)

    def _check_header(self, fd: int, header: Mapping[str, Any]) -> None:
        lineno, record = first_record(fd)  # where every reader (and pi) finds the header
        if not isinstance(record, dict) or record.get("type") != "session":
            raise SessionFileError(
                f"{self._path}:{lineno or 1}: not a tether/pi session header; refusing to append"
            )
        if record.get("id") != header.get("id"):
            raise SessionFileError(
                f"{self._path}:{lineno}: belongs to session {record.get('id')!r}, not "
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
        sidecar = unique_sidecar(self.target, f".torn-{file_stamp()}")
        write_sidecar(sidecar, tail, fsync=self.fsync, what="torn last line")
        try:
            os.ftruncate(fd, start)
            if self.fsync:
                os.fsync(fd)
        except OSError as exc:
            raise SessionFileError(f"{self._path}: cannot append: {exc.strerror}") from None
        self.on_warning(
            f"{self._path}: the last line was incomplete (a torn write, {len(tail)} bytes); "
            f"moved it to {sidecar.name} before appending"
        )
        return b""

    def replace_locked(self, data: bytes, locked_fd: int) -> None:
        """Atomically replace the file's content (temp + fsync + rename) while holding its lock."""
        target = self.target
        if not self._swept:
            self._swept = True
            sweep_stale_temps(self._path, self.on_warning)
        temp = unique_sidecar(target, f".tmp-{os.getpid()}")
        try:
            write_file_durably(temp, data, fsync=self.fsync, mode=PRIVATE_FILE)
            known = KnownFile.of(os.stat(temp))
            os.replace(temp, target)
            self.known = known
        except OSError as exc:
            temp.unlink(missing_ok=True)
            raise SessionFileError(f"{self._path}: cannot rewrite: {exc.strerror}") from None
        if self.fsync:
            fsync_dir(target.parent)

    def rewrite(self, data: bytes, *, backup_suffix: str, expected: bytes | None = None) -> Path:
        """Replace the whole file atomically, keeping the old bytes in a backup; returns it.
        With ``expected``, refuse if the file no longer holds exactly those bytes."""
        with self.locked() as fd:
            old = read_fd(fd)
            if expected is not None and old != expected:
                raise SessionFileError(f"{self._path}: changed on disk meanwhile; nothing written")
            backup = unique_sidecar(self.target, backup_suffix)
            write_sidecar(backup, old, fsync=self.fsync, what="backup")
            try:
                self.replace_locked(data, fd)
            except SessionFileError:
                backup.unlink(missing_ok=True)
                raise
        return backup


def _blank(data: bytes) -> bool:
    """Only whitespace (and perhaps a BOM at the start)."""
    data = data.strip()
    return not (data[len(BOM) :].strip() if data.startswith(BOM) else data)


def _truncate_back(fd: int, size: int) -> None:
    """Undo a partial append (a full disk, a file-size limit): nothing half-written stays."""
    try:
        os.ftruncate(fd, size)
    except OSError:
        pass


__all__ = [
    "JsonlStore",
    "LoadedSession",
    "SessionStore",
    "fsync_default",
    "unique_sidecar",
    "write_file_durably",
]
