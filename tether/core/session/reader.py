"""Reading a session: entries, branches, labels, the name and the context.

:class:`SessionReader` is the read-only half of :class:`tether.core.session.session.Session` (its
base
class; hooks get a :class:`tether.core.hooks.plugin_session.PluginSession`): every method works
from the entry table's columns and parses only the entries it returns. Walks from a leaf to
the root are linear and stop at ``parentId`` cycles; :meth:`SessionReader.build_context`
parses only what can change the context.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from tether.core.context.tokens import js_truthy
from tether.core.storage.entry_table import EntryTable, Problem, StaleRow

if TYPE_CHECKING:
    from tether.core.context.build import SessionContext
    from tether.core.context.stream import ContextStream

T = TypeVar("T")
LEAF_MARKER = "tether.leaf"


JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def js_trim(text: str) -> str:
    """``String.prototype.trim``."""
    return text.strip(JS_WHITESPACE)


@dataclass
class Labels:
    """Resolved labels (last label entry in file order wins; a falsy label clears)."""

    by_target: dict[str, Any] = field(default_factory=dict)
    timestamps: dict[str, Any] = field(default_factory=dict)

    def apply(self, entry: dict[str, Any]) -> None:
        target = entry.get("targetId")
        if not isinstance(target, str):
            return
        label = entry.get("label")
        if js_truthy(label):
            self.by_target[target] = label
            self.timestamps[target] = entry.get("timestamp")
        else:
            self.by_target.pop(target, None)
            self.timestamps.pop(target, None)


class _Current:
    def __repr__(self) -> str:
        return "CURRENT"


CURRENT: Any = _Current()  # "the session's leaf" default for leaf arguments


def is_current(value: Any) -> bool:
    """``CURRENT`` (or ``tether.core.context.build.UNSET``): use the session's leaf."""
    return value is CURRENT or type(value).__name__ == "_Unset"


@contextmanager
def bulk(*, freeze: bool = False) -> Iterator[None]:
    """Parsing JSON builds no cycles: pause the cyclic GC for bulk work (2x faster).

    ``freeze``: move what was loaded to the permanent generation on the way out, so
    re-enabling the collector does not walk it once more (for a command about to end).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if freeze:
                gc.freeze()
            gc.enable()


class SessionReader:
    """The read-only base of ``Session``: its header and entry tree."""

    _table: EntryTable
    _header: dict[str, Any]
    _leaf: Any
    _cwd: str
    _labels: Labels | None
    _labels_gen: int

    @property
    def header(self) -> dict[str, Any]:
        return self._header

    @property
    def session_id(self) -> str:
        return str(self._header.get("id"))

    @property
    def cwd(self) -> str:
        return self._cwd

    @property
    def problems(self) -> list[Problem]:
        """Lines skipped or repaired on load (and entries found broken later), with line numbers."""
        return self._table.problems

    @property
    def table(self) -> EntryTable:
        """The raw entry index (ids, parents, types, timestamps by row). Read-only use."""
        return self._table

    @property
    def leaf_id(self) -> str | None:
        """The current leaf (``None`` = before the first entry)."""
        if self._leaf is CURRENT:
            return self._stable(self._natural_leaf)
        return self._leaf

    def __len__(self) -> int:
        return len(self._table)

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

        with bulk():
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
        path = self._path(row)
        return path if isinstance(path, list) else list(path)

    def _path(self, row: int) -> Sequence[int]:
        """:meth:`_path_rows`, as a ``range`` when rows 0–``row`` are one branch (a 1M-entry
        branch's list and its numbers are ~36 MB of memory touched for the first time)."""
        table = self._table
        limit = len(table)
        if 0 < row < limit and self._one_branch_to(row):
            return range(row + 1)
        parents, by_id = table.parents, table.by_id
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

    def _one_branch_to(self, row: int) -> bool:
        """Whether rows ``0``–``row`` are one branch: each row's parent is the row above (ids
        unique), and row 0's parent is no entry."""
        table = self._table
        ids, parents = table.ids, table.parents
        if table.has_duplicate_ids() or parents[1 : row + 1] != ids[:row]:
            return False
        first = parents[0]
        return not first or first.__class__ is not str or first not in table.by_id

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
        if parent in self._table.duplicates:  # reported as "duplicate id" already
            message = (
                f"entry {entry_id} points to {parent}, a duplicate id that closes a loop "
                "(pi would loop forever); walk stopped there"
            )
        else:
            message = (
                f"parentId cycle: entry {entry_id} points back to {parent}; walk stopped there"
            )
        if not any(p.message == message for p in self.problems):
            row = self._table.by_id.get(entry_id, 0)
            self.problems.append(Problem(self._table.linenos[row], "cycle", message))

    def _start_row(self, from_id: Any) -> int | None:
        entry_id = self.leaf_id if from_id is None or is_current(from_id) else from_id
        return self._table.row_of(entry_id)

    def branch_ids(self, from_id: str | None = None) -> list[str]:
        """Ids of :meth:`get_branch` without parsing entries."""

        def compute() -> list[str]:
            row = self._start_row(from_id)
            ids = self._table.ids
            return [] if row is None else [ids[r] for r in self._path_rows(row)]

        return self._stable(compute)

    def get_branch(self, from_id: str | None = None) -> list[dict[str, Any]]:
        """Entries from the root to ``from_id`` (``None``: the leaf, as pi's ``getBranch``);
        ``[]`` for an unknown id or when the leaf is before the first entry."""

        def compute() -> list[dict[str, Any]]:
            row = self._start_row(from_id)
            if row is None:
                return []
            return self._table.entries(self._path_rows(row))

        with bulk():
            return self._stable(compute)

    def entry_of(self, node: Any) -> dict[str, Any]:
        """The full entry of a tree node (anything with the ``row`` of its entry)."""
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

    def _stream_rows(self, leaf: Any) -> tuple[list[int], set[int]]:
        """:func:`~tether.core.session.context_rows.stream_rows` of the path to ``leaf``
        (pi falls back to the last entry for an unknown leaf)."""
        from tether.core.session.context_rows import stream_rows

        table = self._table
        row = table.row_of(leaf) if leaf is not None else None
        if row is None and leaf is not None and len(table):
            row = len(table) - 1
        return stream_rows(table, [] if row is None else self._path(row))

    def stream_context(self, consume: Callable[[ContextStream], T], leaf_id: Any = CURRENT) -> T:
        """``consume(stream)`` of the context at ``leaf_id`` as a
        :class:`~tether.core.context.stream.ContextStream`: the messages of
        :meth:`build_context`, one at a time, parsed as they are read and not kept, for
        writing out as JSON (see ``EntryTable.iter_entries``' ``to_write``). The entries come
        from the store's ``context_batches`` when it has one (a faster way to the same
        entries, see :class:`~tether.hookspecs.store.ContextBatches`), else from
        :func:`~tether.core.session.context_rows.entry_batches`. When a line turns out
        malformed meanwhile, ``consume`` runs again on the corrected table."""
        from tether.core.context.stream import ContextStream
        from tether.core.session.context_rows import entry_batches

        leaf = self.leaf_id if is_current(leaf_id) else leaf_id
        batches = getattr(getattr(self, "_store", None), "context_batches", entry_batches)

        def compute() -> T:
            ordered, only = self._stream_rows(leaf)
            return consume(ContextStream(batches(self._table, ordered, only)))

        with bulk():
            return self._stable(compute)

    def build_context(self, leaf_id: Any = CURRENT) -> SessionContext:
        """What the model sees at ``leaf_id`` (default: the leaf; ``None`` → empty), pi's rules.

        The same rows and rules as ``session context --json`` (:meth:`stream_context`): the
        last compaction, the last thinking-level and model entries, and the entries from the
        compaction's first kept entry on (whatever kind of entry that is) that can hold a
        message. The rest of the branch is not parsed.
        """
        from tether.core.context.build import SessionContext
        from tether.core.context.stream import ContextStream

        leaf = self.leaf_id if is_current(leaf_id) else leaf_id
        if leaf is None:
            return SessionContext()

        def compute() -> SessionContext:
            ordered, only = self._stream_rows(leaf)
            setting_only = [row in only for row in ordered] if only else None
            stream = ContextStream([(self._table.entries(ordered), setting_only)])
            messages = stream.messages()
            return SessionContext(messages, stream.thinking_level, stream.model)

        with bulk():
            return self._stable(compute)
