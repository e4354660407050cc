"""The session tree over a store: leaf, appends, branching, labels, name, context.

A :class:`Session` is pi's ``SessionManager`` with tether's fixes: it follows pi's lazy
persistence rule (nothing is written before the first assistant message) but remembers how
many entries are on disk, so nothing is ever written twice; the leaf chosen by
:meth:`Session.navigate` survives a restart (a context-neutral ``custom`` entry of type
``tether.leaf`` is appended under it, so pi — which takes the last entry as the leaf — lands on
the same context, and tether reports the marker's parent as the leaf); walks are linear and
stop at ``parentId`` cycles. Fork and clone live in :mod:`tether.core.session.fork` and are
exposed as methods here (a linear export and a cross-project fork are the commands').
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tether.core.base.errors import SessionFileError, TetherError
from tether.core.base.paths import default_session_dir, session_file_name
from tether.core.session import fork as session_fork
from tether.core.session.opening import default_plugins, open_store
from tether.core.session.reader import CURRENT, LEAF_MARKER, SessionReader, bulk
from tether.core.storage import records as rec
from tether.core.storage.entry_table import EntryTable
from tether.core.storage.ids import new_entry_id
from tether.hookspecs.store import LoadedSession, SessionStore


class Session(SessionReader):
    """One session: header + entries (a tree), a leaf, persisted through a store."""

    def __init__(
        self,
        *,
        store: SessionStore | None,
        loaded: LoadedSession | None = None,
        header: dict[str, Any] | None = None,
        cwd: str | None = None,
        session_dir: Path | None = None,
        readonly: bool = False,
        plugins: Any = None,
    ) -> None:
        loaded = loaded or LoadedSession(None, EntryTable())
        self._store = store
        self.plugins = plugins  # the plugin manager its stores are opened with (forks, new)
        self._loaded = loaded
        self._readonly = readonly
        self._table = loaded.table
        self._table.on_drop = self._row_dropped
        self._header = loaded.header or header or rec.make_header(cwd or os.getcwd())
        self._header_on_disk = loaded.header is not None
        self._persisted = len(self._table) if loaded.header is not None else 0
        self._leaf: Any = CURRENT if len(self._table) else None
        self._has_assistant: bool | None = None
        self._labels = None
        self._labels_gen = -1
        self.version_on_disk = loaded.version_on_disk
        self.migrated = loaded.migrated
        self.backup = loaded.backup
        self.notes = list(loaded.notes)
        header_cwd = self._header.get("cwd")
        self._cwd = cwd or (
            header_cwd if isinstance(header_cwd, str) and header_cwd else os.getcwd()
        )
        path = store.path if store is not None else None
        self._session_dir = session_dir or (path.parent if path is not None else None)

    # ---- constructors ---------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        session_dir: str | os.PathLike[str] | None = None,
        cwd: str | None = None,
        readonly: bool = False,
        create: bool = False,
        fsync: bool | None = None,
        store: SessionStore | None = None,
        plugins: Any = None,
    ) -> Session:
        """Open a session file (migrating v1/v2 unless ``readonly``) through ``open_store``.

        A missing file is an error unless ``create`` (then the session starts empty and the file
        appears with the first assistant message); an empty file is a new session.
        """
        if store is None:  # the manager it is opened with is kept: forks and new sessions use it
            plugins = plugins if plugins is not None else default_plugins()
            store = open_store(path, plugins=plugins, fsync=fsync)
        with bulk():  # indexing builds no cycles: no collector passes over a growing heap
            loaded = store.load(readonly=readonly)
        if loaded.header is None and not loaded.exists and not create:
            raise SessionFileError(f"{store.uri}: no such session file")
        return cls(
            store=store,
            loaded=loaded,
            cwd=cwd,
            session_dir=Path(session_dir) if session_dir else None,
            readonly=readonly,
            plugins=plugins,
        )

    @classmethod
    def create(
        cls,
        cwd: str,
        session_dir: str | os.PathLike[str] | None = None,
        *,
        session_id: str | None = None,
        parent_session: str | None = None,
        home: Path | None = None,
        fsync: bool | None = None,
        plugins: Any = None,
    ) -> Session:
        """A new persisted session in ``session_dir`` (default: the project folder under home)."""
        header = rec.make_header(cwd, session_id=session_id, parent_session=parent_session)
        folder = Path(session_dir) if session_dir else default_session_dir(cwd, home)
        path = folder / session_file_name(header["timestamp"], header["id"])
        plugins = plugins if plugins is not None else default_plugins()
        store = open_store(path, plugins=plugins, fsync=fsync)
        return cls(store=store, header=header, cwd=cwd, session_dir=folder, plugins=plugins)

    @classmethod
    def in_memory(cls, cwd: str | None = None) -> Session:
        """A session that is never written anywhere."""
        return cls(store=None, cwd=cwd or os.getcwd())

    @classmethod
    def from_store(
        cls, store: SessionStore, *, cwd: str | None = None, readonly: bool = False
    ) -> Session:
        """Open whatever ``store`` holds (a new session if it holds nothing)."""
        return cls(store=store, loaded=store.load(readonly=readonly), cwd=cwd, readonly=readonly)

    # ---- properties -----------------------------------------------------------------------------

    @property
    def store(self) -> SessionStore | None:
        return self._store

    @property
    def file(self) -> Path | None:
        return self._store.path if self._store is not None else None

    @property
    def session_dir(self) -> Path | None:
        return self._session_dir

    @property
    def readonly(self) -> bool:
        return self._readonly

    @property
    def on_disk(self) -> bool:
        """Whether the header has been written (the file exists with this session in it)."""
        return self._header_on_disk

    @property
    def persisted_count(self) -> int:
        """How many entries are known to be on disk."""
        return self._persisted

    def __repr__(self) -> str:
        return f"Session({self.session_id!r}, file={str(self.file) if self.file else None!r})"

    # ---- appending ----------------------------------------------------------------------------

    def _new_id(self) -> str:
        return new_entry_id(self._table.by_id)

    def _has_assistant_now(self) -> bool:
        if not self._has_assistant:
            table = self._table
            self._has_assistant = self._stable(
                lambda: any(
                    kind == "message" and self._role(row) == "assistant"
                    for row, kind in enumerate(table.types)
                )
            )
        return bool(self._has_assistant)

    def _append(self, entry: dict[str, Any], *, move_leaf: bool = True) -> str:
        if self._readonly:
            raise TetherError(f"{self.file}: session opened read-only; cannot append")
        self._table.add_record(entry)
        if entry.get("type") == "label" and self._labels is not None:
            self._labels.apply(entry)
        message = entry.get("message") if entry.get("type") == "message" else None
        if isinstance(message, dict) and message.get("role") == "assistant":
            self._has_assistant = True
        if move_leaf:
            self._leaf = entry["id"]
        self.flush()
        return str(entry["id"])

    def flush(self, *, force: bool = False) -> None:
        """Write the entries not yet on disk, following pi's rule: only once the session has an
        assistant message (``force``: now, header included). Safe to call any time; a failed
        write is retried on the next call."""
        if self._store is None or self._readonly:
            return
        if not force and not self._has_assistant_now():
            return
        end = len(self._table)
        if self._persisted >= end and (self._header_on_disk or not force):
            return
        pending = [self._table.entry(row) for row in range(self._persisted, end)]
        commit = getattr(self._store, "commit_migration", None)
        if self._loaded.pending_rewrite is not None and commit is not None:
            self.backup = commit(self._loaded)
        self._store.append(pending, header=self._header, header_written=self._header_on_disk)
        self._persisted = end
        self._header_on_disk = True

    def _row_dropped(self, row: int) -> None:
        """A loaded line turned out broken and left the table: one fewer row on disk."""
        if row < self._persisted:
            self._persisted -= 1

    def _adopt(self, entries: list[dict[str, Any]]) -> None:
        """Fill an empty session with ``entries`` (fork/clone), then apply the persistence rule."""
        for entry in entries:
            self._table.add_record(entry)
        self._leaf = entries[-1]["id"] if entries else None
        self._has_assistant = None
        self._labels = None
        self.flush()

    def _parent(self) -> str | None:
        return self.leaf_id

    def append_message(self, message: dict[str, Any]) -> str:
        """A ``message`` entry (user, assistant, toolResult, bashExecution, custom roles)."""
        return self._append(rec.make_message_entry(self._new_id(), self._parent(), message))

    def append_thinking_level_change(self, thinking_level: str) -> str:
        return self._append(
            rec.make_thinking_level_change(self._new_id(), self._parent(), thinking_level)
        )

    def append_model_change(self, provider: str, model_id: str) -> str:
        return self._append(
            rec.make_model_change(self._new_id(), self._parent(), provider, model_id)
        )

    def append_compaction(
        self,
        summary: str,
        first_kept_entry_id: str,
        tokens_before: int,
        details: Any = None,
        from_hook: bool | None = None,
    ) -> str:
        return self._append(
            rec.make_compaction(
                self._new_id(),
                self._parent(),
                summary,
                first_kept_entry_id,
                tokens_before,
                details,
                from_hook,
            )
        )

    def append_custom_entry(self, custom_type: str, data: Any = None) -> str:
        return self._append(rec.make_custom(self._new_id(), self._parent(), custom_type, data))

    def append_custom_message_entry(
        self, custom_type: str, content: Any, display: bool, details: Any = None
    ) -> str:
        return self._append(
            rec.make_custom_message(
                self._new_id(), self._parent(), custom_type, content, display, details
            )
        )

    def append_session_info(self, name: str) -> str:
        return self._append(rec.make_session_info(self._new_id(), self._parent(), name))

    def append_label_change(self, target_id: str, label: str | None = None) -> str:
        """Set (or with ``None``/empty clear) the label of ``target_id``."""
        if not self.has_entry(target_id):
            raise TetherError(f"Entry {target_id} not found")
        return self._append(rec.make_label(self._new_id(), self._parent(), target_id, label))

    def branch_with_summary(
        self, from_id: str | None, summary: str, details: Any = None, from_hook: bool | None = None
    ) -> str:
        """Move the leaf to ``from_id`` (``None``: a new root) and attach a ``branch_summary``
        there; ``fromId`` is written as pi writes it (``from_id`` or ``"root"``)."""
        if from_id is not None and not self.has_entry(from_id):
            raise TetherError(f"Entry {from_id} not found")
        self._leaf = from_id
        entry = rec.make_branch_summary(
            self._new_id(), from_id, from_id or "root", summary, details, from_hook
        )
        return self._append(entry)

    # ---- leaf movement ------------------------------------------------------------------------

    def branch(self, entry_id: str) -> None:
        """Move the leaf to ``entry_id`` in memory (the next append branches from there)."""
        if not self.has_entry(entry_id):
            raise TetherError(f"Entry {entry_id} not found")
        self._leaf = entry_id

    def reset_leaf(self) -> None:
        """Leaf = before the first entry: the next append is a new root."""
        self._leaf = None

    def navigate(self, target_id: str | None) -> str | None:
        """Move the leaf to ``target_id`` and make it survive a restart, in tether and in pi.

        Appends a ``custom`` entry ``{"customType": "tether.leaf"}`` as a child of the target
        (unless a reload would already land there). pi takes the last entry as its leaf: the
        marker, whose context equals the target's. tether reports the marker's parent.
        Returns the marker's id, or ``None`` when nothing had to be written.
        """
        if target_id is not None and not self.has_entry(target_id):
            raise TetherError(f"Entry {target_id} not found")
        self._leaf = target_id
        if self._stable(self._natural_leaf) == target_id:
            return None
        marker = rec.make_custom(self._new_id(), target_id, LEAF_MARKER)
        return self._append(marker, move_leaf=False)

    # ---- fork, clone, new ----------------------------------------------------------------------

    def fork(self, entry_id: str, *, position: str = "before", output: Path | None = None) -> Any:
        """pi's fork: ``before`` a user message (→ ``(session, text)``) or ``at`` an entry."""
        return session_fork.fork(self, entry_id, position=position, output=output)

    def clone(self, at: str | None = None, *, output: Path | None = None) -> Session:
        """A new session holding the path to ``at`` (default: the leaf), labels kept."""
        return session_fork.clone(self, at, output=output)

    def new_session(self, *, parent_session: str | None = None) -> Session:
        """A fresh session in the same folder and cwd (``parentSession`` as given)."""
        if self._store is None:
            return Session.in_memory(self._cwd)
        sibling, opened = getattr(self._store, "sibling", None), {"plugins": self.plugins}
        if sibling is not None:  # a database: the new session goes there too
            header = rec.make_header(self._cwd, parent_session=parent_session)
            return Session(store=sibling(header["id"]), header=header, cwd=self._cwd, **opened)
        return Session.create(self._cwd, self._session_dir, parent_session=parent_session, **opened)


__all__ = ["CURRENT", "LEAF_MARKER", "Session"]
