"""The tree of a session as the ``session`` commands show it: pi's ``getTree`` order and labels.

Works on the :class:`tether.storage.EntryTable` columns, so a 100k-entry tree is built without
parsing entries. Order is pi's: roots and children in file order, children sorted (stably) by
``Date.parse(timestamp)``; an entry whose ``parentId`` is null or its own id is a root, one
whose parent is unknown an orphan root. Unlike pi, a ``parentId`` cycle cannot hang.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cmp_to_key
from typing import Any

from tether.storage import EntryTable, date_parse_ms


@dataclass(eq=False)
class TreeNode:
    """One entry in the tree (``row`` indexes the session's entry table)."""

    row: int
    id: str
    children: list[TreeNode] = field(default_factory=list)
    label: Any = None
    label_timestamp: Any = None


def _sort_children(children: list[TreeNode], table: EntryTable) -> None:
    if len(children) < 2:
        return
    keys = [date_parse_ms(table.stamp(node.row)) for node in children]
    if None not in keys:
        order = sorted(range(len(children)), key=keys.__getitem__)
    else:  # NaN compares as "equal" in JS: emulate the comparator (V8 and CPython share TimSort)

        def compare(a: int, b: int) -> int:
            ka, kb = keys[a], keys[b]
            if ka is None or kb is None:
                return 0
            return (ka > kb) - (ka < kb)

        order = sorted(range(len(children)), key=cmp_to_key(compare))
    children[:] = [children[i] for i in order]


def build_tree(session: Any) -> list[TreeNode]:
    """pi's ``getTree()`` of ``session``: the root nodes, children sorted by timestamp, each
    node with its resolved label (``session.labels()``, ``session.label_timestamps()``)."""
    table: EntryTable = session.table
    ids = table.ids
    parents = table.parents
    node_of: dict[str, TreeNode] = {}
    label_of = session.labels()
    stamp_of = session.label_timestamps()
    for row, entry_id in enumerate(ids):
        node_of[entry_id] = TreeNode(
            row, entry_id, [], label_of.get(entry_id), stamp_of.get(entry_id)
        )
    roots: list[TreeNode] = []
    for row, entry_id in enumerate(ids):
        node = node_of[entry_id]  # pi looks nodes up by id: a duplicated id uses the last one
        parent_id = parents[row]
        if parent_id is None or parent_id == entry_id:
            roots.append(node)
            continue
        parent = node_of.get(parent_id) if isinstance(parent_id, str) else None
        if parent is None:
            roots.append(node)
        else:
            parent.children.append(node)
    stack = list(roots)
    sorted_nodes: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in sorted_nodes:
            continue  # reachable twice only through duplicated ids; never loop
        sorted_nodes.add(id(node))
        _sort_children(node.children, table)
        stack.extend(node.children)
    return roots


__all__ = ["TreeNode", "build_tree"]
