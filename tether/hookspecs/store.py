"""What a session store returns and promises: :class:`LoadedSession`, :class:`SessionStore`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from tether.core.storage.entry_table import EntryTable, Problem


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

    def load(self, *, readonly: bool = False, validate_all: bool = False) -> LoadedSession:
        """Read the session; migrate old versions (not when ``readonly``). ``validate_all``
        (``tether session show --validate``): check every line, not only a stored index."""

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


EntryBatch = tuple[list[dict[str, Any]], list[bool] | None]


@runtime_checkable
class ContextBatches(Protocol):
    """What a store may add for speed (optional): the kernel reads a context's entries through
    it when the store has it, else by its own reference
    (:func:`tether.core.session.context_rows.entry_batches`), which it must equal entry for
    entry. The JSONL store reads the lines again from its file in large reads and parses them
    a batch at a time."""

    def context_batches(
        self, table: EntryTable, rows: list[int], setting_only: set[int]
    ) -> Iterator[EntryBatch]:
        """The entries of ``rows`` (parsed, not kept), a batch at a time, each batch with
        which of its entries are in ``setting_only`` (``None``: none)."""


__all__ = ["ContextBatches", "EntryBatch", "LoadedSession", "SessionStore"]
