"""The session tree over a store: leaf, appends, branching, labels, name, context.

A :class:`Session` is pi's ``SessionManager`` with tether's fixes: it follows pi's lazy
persistence rule (nothing is written before the first assistant message) but remembers how
many entries are on disk, so nothing is ever written twice; the leaf chosen by
:meth:`Session.navigate` survives a restart (a context-neutral ``custom`` entry of type
``tether.leaf`` is appended under it, so pi — which takes the last entry as the leaf — lands on
the same context, and tether reports the marker's parent as the leaf); walks are linear and
stop at ``parentId`` cycles. Fork, clone, export and cross-project fork live in
:mod:`tether.core.session_fork` and are exposed as methods here.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from tether.core import format as fmt
from tether.core.errors import SessionFileError, TetherError
from tether.core.jsonl_index import EntryTable, Problem, StaleRow
from tether.core.paths import default_session_dir, session_file_name
from tether.core.session_tree import Labels, TreeNode, build_tree, js_trim, tree_json
from tether.core.store import JsonlStore, LoadedSession, SessionStore

if TYPE_CHECKING:
    from tether.core.context import SessionContext

T = TypeVar("T")
LEAF_MARKER = "tether.leaf"
_CONTEXT_TYPES = frozenset({"message", "custom_message", "branch_summary"})


class _Current:
    def __repr__(self) -> str:
        return "CURRENT"


CURRENT: Any = _Current()  # "the session's leaf" default for leaf arguments


def _is_current(value: Any) -> bool:
    return value is CURRENT or type(value).__name__ == "_Unset"


@contextmanager
def _bulk() -> Iterator[None]:
    """Parsing JSON builds no cycles: pause the cyclic GC for bulk work (2x faster)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class Session:
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
    ) -> None:
        loaded = loaded or LoadedSession(None, EntryTable())
        self._store = store
        self._loaded = loaded
        self._readonly = readonly
        self._table = loaded.table
        self._header = loaded.header or header or fmt.make_header(cwd or os.getcwd())
        self._header_on_disk = loaded.header is not None
        self._persisted = len(self._table) if loaded.header is not None else 0
        self._leaf: Any = CURRENT if len(self._table) else None
        self._has_assistant: bool | None = None
        self._labels: Labels | None = None
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
    ) -> Session:
        """Open a session file (migrating v1/v2 unless ``readonly``).

        A missing file is an error unless ``create`` (then the session starts empty and the file
        appears with the first assistant message); an empty file is a new session.
        """
        store = store or JsonlStore(path, fsync=fsync)
        loaded = store.load(readonly=readonly)
        if loaded.header is None and not loaded.exists and not create:
            raise SessionFileError(f"{store.uri}: no such session file")
        return cls(
            store=store,
            loaded=loaded,
            cwd=cwd,
            session_dir=Path(session_dir) if session_dir else None,
            readonly=readonly,
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
    ) -> Session:
        """A new persisted session in ``session_dir`` (default: the project folder under home)."""
        header = fmt.make_header(cwd, session_id=session_id, parent_session=parent_session)
        folder = Path(session_dir) if session_dir else default_session_dir(cwd, home)
        path = folder / session_file_name(header["timestamp"], header["id"])
        return cls(store=JsonlStore(path, fsync=fsync), header=header, cwd=cwd, session_dir=folder)

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
    def header(self) -> dict[str, Any]:
        return self._header

    @property
    def store(self) -> SessionStore | None:
        return self._store

    @property
    def file(self) -> Path | None:
        return self._store.path if self._store is not None else None

    @property
    def session_id(self) -> str:
        return str(self._header.get("id"))

    @property
    def cwd(self) -> str:
        return self._cwd

    @property
    def session_dir(self) -> Path | None:
        return self._session_dir

    @property
    def readonly(self) -> bool:
        return self._readonly

    @property
    def problems(self) -> list[Problem]:
        """Lines skipped or repaired on load (and entries found broken later), with line numbers."""
        return self._table.problems

    @property
    def table(self) -> EntryTable:
        """The raw entry index (ids, parents, types, timestamps by row). Read-only use."""
        return self._table

    @property
    def on_disk(self) -> bool:
        """Whether the header has been written (the file exists with this session in it)."""
        return self._header_on_disk

    @property
    def persisted_count(self) -> int:
        """How many entries are known to be on disk."""
        return self._persisted

    @property
    def leaf_id(self) -> str | None:
        """The current leaf (``None`` = before the first entry)."""
        if self._leaf is CURRENT:
            return self._stable(self._natural_leaf)
        return self._leaf

    def __len__(self) -> int:
        return len(self._table)

    def __repr__(self) -> str:
        return f"Session({self.session_id!r}, file={str(self.file) if self.file else None!r})"

    # ---- reading ------------------------------------------------------------------------------

    def _stable(self, compute: Callable[[], T]) -> T:
        """Run ``compute``; if an entry turned out malformed meanwhile, recompute."""
        while True:
            generation = self._table.generation
            try:
                result = compute()
            except StaleRow:
                continue
            if self._table.generation == generation:
                return result

    def _natural_leaf(self) -> str | None:
        """The leaf a reload gives: the last entry, or the parent of a ``tether.leaf`` marker."""
        table = self._table
        if not len(table):
            return None
        row = len(table) - 1
        if table.types[row] == "custom" and table.entry(row).get("customType") == LEAF_MARKER:
            parent = table.parents[row]
            return parent if isinstance(parent, str) and parent in table.by_id else None
        return table.ids[row]

    def entries(self) -> list[dict[str, Any]]:
        """All entries in file order (header excluded). Treat them as read-only."""

        def compute() -> list[dict[str, Any]]:
            return self._table.entries(list(range(len(self._table))))

        with _bulk():
            return self._stable(compute)

    def get_entry(self, entry_id: str) -> dict[str, Any] | None:
        def compute() -> dict[str, Any] | None:
            row = self._table.row_of(entry_id)
            return None if row is None else self._table.entry(row)

        return self._stable(compute)

    def has_entry(self, entry_id: str | None) -> bool:
        return self._table.row_of(entry_id) is not None

    def get_children(self, parent_id: str) -> list[dict[str, Any]]:
        """Direct children of ``parent_id`` in file order (from the children index)."""

        def compute() -> list[dict[str, Any]]:
            rows = self._table.children_index().get(parent_id, [])
            return [self._table.entry(row) for row in rows]

        return self._stable(compute)

    def _path_rows(self, row: int) -> list[int]:
        """Rows from the root down to ``row``; stops at a missing parent or a cycle."""
        table = self._table
        parents, by_id = table.parents, table.by_id
        limit = len(table)
        rows = [row]
        append = rows.append
        current = row
        while True:
            parent = parents[current]
            if not parent or parent.__class__ is not str:
                break
            current = by_id.get(parent, -1)
            if current < 0:
                break
            append(current)
            if len(rows) > limit:  # longer than the table: there is a cycle
                return self._path_rows_checked(row)
        rows.reverse()
        return rows

    def _path_rows_checked(self, row: int) -> list[int]:
        table = self._table
        rows, seen, current = [row], {row}, row
        while True:
            parent = table.parents[current]
            nxt = table.by_id.get(parent, -1) if isinstance(parent, str) and parent else -1
            if nxt < 0:
                break
            if nxt in seen:
                self._note_cycle(table.ids[current], parent)
                break
            seen.add(nxt)
            rows.append(nxt)
            current = nxt
        rows.reverse()
        return rows

    def _note_cycle(self, entry_id: str, parent: str) -> None:
        message = f"parentId cycle: entry {entry_id} points back to {parent}; walk stopped there"
        if not any(p.message == message for p in self.problems):
            row = self._table.by_id.get(entry_id, 0)
            self.problems.append(Problem(self._table.linenos[row], "cycle", message))

    def _start_row(self, from_id: Any) -> int | None:
        entry_id = self.leaf_id if _is_current(from_id) else from_id
        return self._table.row_of(entry_id)

    def branch_ids(self, from_id: Any = CURRENT) -> list[str]:
        """Ids of :meth:`get_branch` without parsing entries."""

        def compute() -> list[str]:
            row = self._start_row(from_id)
            ids = self._table.ids
            return [] if row is None else [ids[r] for r in self._path_rows(row)]

        return self._stable(compute)

    def get_branch(self, from_id: Any = CURRENT) -> list[dict[str, Any]]:
        """Entries from the root to ``from_id`` (default: the leaf); ``[]`` if unknown/None."""

        def compute() -> list[dict[str, Any]]:
            row = self._start_row(from_id)
            if row is None:
                return []
            return self._table.entries(self._path_rows(row))

        with _bulk():
            return self._stable(compute)

    def get_tree(self) -> list[TreeNode]:
        """pi's ``getTree()``: root nodes, children sorted by timestamp (see ``session_tree``)."""
        return build_tree(self._table, self._resolved_labels())

    def tree_json(self) -> dict[str, Any]:
        """The oracle's ``tree`` fields for this session (plus ``header``)."""
        out = tree_json(
            self._table,
            self.get_tree(),
            session_name=self.session_name,
            branch=self.branch_ids(),
            leaf_id=self.leaf_id,
        )
        return {"header": self._header, **out}

    def entry_of(self, node: TreeNode) -> dict[str, Any]:
        """The full entry of a tree node."""
        return self._stable(lambda: self._table.entry(node.row))

    # ---- labels and name ----------------------------------------------------------------------

    def _resolved_labels(self) -> Labels:
        if self._labels is None or self._labels_gen != self._table.generation:

            def compute() -> Labels:
                labels = Labels()
                for row in self._table.rows_of_type("label"):
                    labels.apply(self._table.entry(row))
                return labels

            self._labels = self._stable(compute)
            self._labels_gen = self._table.generation
        return self._labels

    def get_label(self, entry_id: str) -> Any:
        return self._resolved_labels().by_target.get(entry_id)

    def labels(self) -> dict[str, Any]:
        """targetId → label, in pi's map order."""
        return dict(self._resolved_labels().by_target)

    def label_timestamps(self) -> dict[str, Any]:
        return dict(self._resolved_labels().timestamps)

    @property
    def session_name(self) -> str | None:
        """The last ``session_info`` entry in file order (any branch); empty clears (pi 0.73)."""

        def compute() -> str | None:
            table = self._table
            for row in range(len(table) - 1, -1, -1):
                if table.types[row] == "session_info":
                    name = table.entry(row).get("name")
                    return (js_trim(name) or None) if isinstance(name, str) else None
            return None

        return self._stable(compute)

    # ---- context ------------------------------------------------------------------------------

    def _role(self, row: int) -> str | None:
        return self._table.role(row)

    def _context_rows(self, path: list[int]) -> list[int]:
        """The rows of ``path`` that can change its context (the rest is skipped unparsed)."""
        types = self._table.types
        compaction = thinking = model = -1
        for i, row in enumerate(path):
            kind = types[row]
            if kind == "compaction":
                compaction = i
            elif kind == "thinking_level_change":
                thinking = i
        for i in range(len(path) - 1, -1, -1):
            kind = types[path[i]]
            if kind == "model_change" or (kind == "message" and self._role(path[i]) == "assistant"):
                model = i
                break
        start = 0
        keep = {thinking, model, compaction} - {-1}
        if compaction >= 0:
            first_kept = self._table.entry(path[compaction]).get("firstKeptEntryId")
            ids = self._table.ids
            start = next(
                (i for i in range(compaction) if ids[path[i]] == first_kept), compaction + 1
            )
        keep.update(i for i in range(start, len(path)) if types[path[i]] in _CONTEXT_TYPES)
        return [path[i] for i in sorted(keep)]

    def build_context(self, leaf_id: Any = CURRENT) -> SessionContext:
        """What the model sees at ``leaf_id`` (default: the leaf; ``None`` → empty), pi's rules.

        Only the entries that matter are parsed: after the last compaction on the path, plus
        the last thinking-level and model entries.
        """
        from tether.core.context import SessionContext, build_context_from_path

        leaf = self.leaf_id if _is_current(leaf_id) else leaf_id
        if leaf is None:
            return SessionContext()

        def compute() -> SessionContext:
            table = self._table
            row = table.row_of(leaf)
            if row is None:  # pi falls back to the last entry for an unknown leaf
                if not len(table):
                    return SessionContext()
                row = len(table) - 1
            rows = self._context_rows(self._path_rows(row))
            return build_context_from_path(table.entries(rows))

        with _bulk():
            return self._stable(compute)

    # ---- appending ----------------------------------------------------------------------------

    def _new_id(self) -> str:
        return fmt.new_entry_id(self._table.by_id)

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

    def flush(self) -> None:
        """Write the entries not yet on disk, following pi's rule: only once the session has an
        assistant message. Safe to call any time; a failed write is retried on the next call."""
        if self._store is None or self._readonly or not self._has_assistant_now():
            return
        end = len(self._table)
        if self._persisted >= end:
            return
        pending = [self._table.entry(row) for row in range(self._persisted, end)]
        commit = getattr(self._store, "commit_migration", None)
        if self._loaded.pending_rewrite is not None and commit is not None:
            self.backup = commit(self._loaded)
        self._store.append(pending, header=self._header)
        self._persisted = end
        self._header_on_disk = True

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
        return self._append(fmt.make_message_entry(self._new_id(), self._parent(), message))

    def append_thinking_level_change(self, thinking_level: str) -> str:
        return self._append(
            fmt.make_thinking_level_change(self._new_id(), self._parent(), thinking_level)
        )

    def append_model_change(self, provider: str, model_id: str) -> str:
        return self._append(
            fmt.make_model_change(self._new_id(), self._parent(), provider, model_id)
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
            fmt.make_compaction(
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
        return self._append(fmt.make_custom(self._new_id(), self._parent(), custom_type, data))

    def append_custom_message_entry(
        self, custom_type: str, content: Any, display: bool, details: Any = None
    ) -> str:
        return self._append(
            fmt.make_custom_message(
                self._new_id(), self._parent(), custom_type, content, display, details
            )
        )

    def append_session_info(self, name: str) -> str:
        return self._append(fmt.make_session_info(self._new_id(), self._parent(), name))

    def append_label_change(self, target_id: str, label: str | None = None) -> str:
        """Set (or with ``None``/empty clear) the label of ``target_id``."""
        if not self.has_entry(target_id):
            raise TetherError(f"Entry {target_id} not found")
        return self._append(fmt.make_label(self._new_id(), self._parent(), target_id, label))

    def branch_with_summary(
        self, from_id: str | None, summary: str, details: Any = None, from_hook: bool | None = None
    ) -> str:
        """Move the leaf to ``from_id`` (``None``: a new root) and attach a ``branch_summary``
        there; ``fromId`` is written as pi writes it (``from_id`` or ``"root"``)."""
        if from_id is not None and not self.has_entry(from_id):
            raise TetherError(f"Entry {from_id} not found")
        self._leaf = from_id
        entry = fmt.make_branch_summary(
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
        marker = fmt.make_custom(self._new_id(), target_id, LEAF_MARKER)
        return self._append(marker, move_leaf=False)

    # ---- fork, clone, export ------------------------------------------------------------------

    def fork(self, entry_id: str, *, position: str = "before", output: Path | None = None) -> Any:
        """pi's fork: ``before`` a user message (→ ``(session, text)``) or ``at`` an entry."""
        from tether.core.session_fork import fork

        return fork(self, entry_id, position=position, output=output)

    def clone(self, at: str | None = None, *, output: Path | None = None) -> Session:
        """A new session holding the path to ``at`` (default: the leaf), labels kept."""
        from tether.core.session_fork import clone

        return clone(self, at, output=output)

    def new_session(self, *, parent_session: str | None = None) -> Session:
        """A fresh session in the same folder and cwd (``parentSession`` as given)."""
        if self._store is None:
            return Session.in_memory(self._cwd)
        return Session.create(self._cwd, self._session_dir, parent_session=parent_session)

    def export_jsonl(self, output: str | os.PathLike[str] | None = None) -> Path:
        """The current branch as a linear session file (pi's ``exportToJsonl``)."""
        from tether.core.session_fork import export_jsonl

        return export_jsonl(self, output)

    @classmethod
    def fork_from(
        cls,
        source: str | os.PathLike[str],
        target_cwd: str,
        session_dir: str | os.PathLike[str] | None = None,
        *,
        home: Path | None = None,
    ) -> Session:
        """Cross-project fork: the source (migrated first) copied into a new session of
        ``target_cwd`` with ``parentSession`` = the source path."""
        from tether.core.session_fork import fork_from

        return fork_from(source, target_cwd, session_dir, home=home)


__all__ = ["CURRENT", "LEAF_MARKER", "Session"]
