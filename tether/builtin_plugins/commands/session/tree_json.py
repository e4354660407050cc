"""``tether session tree --json``: the oracle's ``tree`` fields of a session.

The order is pi's ``getTree`` (:func:`~.tree_nodes.build_tree`: roots and children in file order,
children sorted by timestamp); every field is read from the session's entry table, so a
100k-entry tree is written without parsing entries.
"""

from __future__ import annotations

from typing import Any

from tether.builtin_plugins.commands.session.tree_nodes import build_tree


def walk_preorder(roots: list[Any]) -> list[Any]:
    """Tree nodes in pre-order (the oracle's ``preorder``), each visited once."""
    order: list[Any] = []
    seen: set[int] = set()
    stack = list(reversed(roots))
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        order.append(node)
        stack.extend(reversed(node.children))
    return order


def tree_json(session: Any) -> dict[str, Any]:
    """The oracle's ``tree`` output fields (``header, roots, children, preorder, treeLeaves,
    labels, labelTimestamps, sessionName, branch, leafId, entries``) of ``session``."""
    table, roots = session.table, build_tree(session)
    children: dict[str, list[str]] = {}
    labels: dict[str, Any] = {}
    label_timestamps: dict[str, Any] = {}
    preorder = walk_preorder(roots)
    for node in preorder:
        children[node.id] = [child.id for child in node.children]
        if node.label is not None:
            labels[node.id] = node.label
        if node.label_timestamp is not None:
            label_timestamps[node.id] = node.label_timestamp
    leaves = [entry_id for entry_id in table.ids if children.get(entry_id) == []]
    return {
        "header": session.header,
        "leafId": session.leaf_id,
        "sessionName": session.session_name,
        "roots": [node.id for node in roots],
        "children": children,
        "preorder": [node.id for node in preorder],
        "treeLeaves": leaves,
        "labels": labels,
        "labelTimestamps": label_timestamps,
        "branch": session.branch_ids(),
        "entryCount": len(table),
        "entries": [
            {
                "id": table.ids[row],
                "parentId": _plain(table.parents[row]),
                "type": table.types[row],
                "timestamp": table.stamp(row),
            }
            for row in range(len(table))
        ],
    }


def _plain(value: Any) -> Any:
    return (
        getattr(value, "value", value)
        if value is not None and not isinstance(value, str)
        else value
    )


__all__ = ["tree_json", "walk_preorder"]
