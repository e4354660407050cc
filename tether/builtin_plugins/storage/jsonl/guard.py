"""Has a session file changed since this process last read or wrote it? (one writer per session)

:class:`~tether.builtin_plugins.storage.jsonl.store.JsonlStore` remembers the size and inode of its
file after each
read and write (:class:`KnownFile`); before an append, under the file's lock, it calls
:func:`check_unchanged`. Bytes that appeared meanwhile come from a writer that ignored the
session lease (pi itself, an older tether): appending on this process's stale leaf would split
the session, so the append is refused with a :class:`SessionChangedError` that says what was
added.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from tether import SessionChangedError
from tether.storage import REOPEN

READ_LIMIT = 64 << 20  # count the added entries of at most this many bytes


@dataclass(frozen=True)
class KnownFile:
    """The size and identity of a session file as this process last saw it
    (``ino == -1``: the file was missing)."""

    size: int
    dev: int = -1
    ino: int = -1

    @classmethod
    def of(cls, stat: os.stat_result, size: int | None = None) -> KnownFile:
        return cls(stat.st_size if size is None else size, stat.st_dev, stat.st_ino)


MISSING = KnownFile(0)


def _count_entries(data: bytes) -> int:
    return sum(1 for line in data.split(b"\n") if line.strip())


def check_unchanged(path: Path, fd: int, known: KnownFile | None) -> None:
    """Raise :class:`SessionChangedError` if the file open (and locked) as ``fd`` has not the
    size this process last saw: grown, shrunk, or replaced by a different file (a file
    replaced by one of the same size — a rewrite to the same bytes — is followed).
    ``known=None``: nothing to check."""
    if known is None:
        return
    stat = os.fstat(fd)
    if stat.st_size in (known.size, 0):
        return  # same size: also after an atomic rewrite to the same bytes (followed);
        # emptied: the store's own check names that case
    if known.ino != -1 and (stat.st_dev, stat.st_ino) != (known.dev, known.ino):
        raise SessionChangedError(
            f"{path}: was replaced on disk by another writer since this process read it "
            f"({known.size} → {stat.st_size} bytes); {REOPEN}"
        )
    if stat.st_size < known.size:
        raise SessionChangedError(
            f"{path}: lost {known.size - stat.st_size} bytes since this process read it "
            f"(another writer truncated it); {REOPEN}"
        )
    added = stat.st_size - known.size
    data = os.pread(fd, min(added, READ_LIMIT), known.size)
    count = _count_entries(data)
    what = f"{count} entr{'y' if count == 1 else 'ies'} ({added} bytes)"
    if added > READ_LIMIT:
        what = f"{added} bytes ({count}+ entries)"
    raise SessionChangedError(
        f"{path}: another writer appended {what} since this process read it; {REOPEN}"
    )


__all__ = ["MISSING", "KnownFile", "SessionChangedError", "check_unchanged"]
