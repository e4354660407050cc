"""The readable tree of ``tether session tree`` and chat's ``/tree``.

Connectors (``├─ └─ │``) only where the conversation branches; a linear run stays in one
column. Long runs fold into one ``… N entries …`` line (``full=True`` shows all), keeping what
matters: the first entry of each run, its last :data:`TAIL` entries, the current leaf, labelled
entries and summaries (compactions, branch summaries, with a one-line preview). The first
column marks the active path (``>``) and the current leaf (``*``), so the marks survive
without colour. Colour is plain ANSI (no rich: start-up stays fast), decided by
:func:`use_colour`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from tether.builtin_plugins.commands.session.render import FOLD_MIN, TAIL, describe
from tether.builtin_plugins.commands.session.tree_nodes import build_tree

SUMMARY_TYPES = ("compaction", "branch_summary")

BRANCH, LAST, PIPE, BLANK = "├─ ", "└─ ", "│  ", "   "
LEAF_MARK, PATH_MARK, OFF_MARK = "*", ">", " "

_CODES = {
    "leaf": "1;33",  # bold yellow
    "path": "1;32",  # bold green
    "off": "2",  # dim
    "connector": "2",
    "label": "36",  # cyan
    "summary": "35",  # magenta
    "fold": "2;3",  # dim italic
}


def use_colour(choice: str, stream: TextIO) -> bool:
    """``--color always|never|auto``; auto: not with ``NO_COLOR`` or ``TERM=dumb``, yes with
    ``FORCE_COLOR`` (not ``0``), else only when ``stream`` is a terminal."""
    if choice not in ("auto", "always", "never"):
        from tether.cli import UsageError

        raise UsageError(f"--color: expected auto, always or never, not '{choice}'")
    if choice == "always":
        return True
    if choice == "never":
        return False
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    forced = os.environ.get("FORCE_COLOR")
    if forced and forced != "0":
        return True
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _painter(colour: bool) -> Callable[[str, str], str]:
    if not colour:
        return lambda _style, text: text
    return lambda style, text: f"\x1b[{_CODES[style]}m{text}\x1b[0m" if text else text


@dataclass
class _Run:
    """A linear run: nodes where each but the last has exactly one child."""

    nodes: list[Any]
    prefix: str  # indentation of the lines after the first
    first_prefix: str  # indentation + connector of the first line


def _collect_run(node: Any, seen: set[int]) -> list[Any]:
    nodes = [node]
    seen.add(id(node))
    while len(node.children) == 1 and id(node.children[0]) not in seen:
        node = node.children[0]
        seen.add(id(node))
        nodes.append(node)
    return nodes


class TreeView:
    """Renders one session's tree as lines (see the module doc)."""

    def __init__(self, session: Any, *, full: bool = False, colour: bool = False) -> None:
        self.session = session
        self.full = full
        self.paint = _painter(colour)
        self.leaf = session.leaf_id
        self.on_path = set(session.branch_ids())
        table = getattr(session, "table", None)
        self.types = table.types if table is not None else None

    def _type(self, node: Any) -> Any:
        if self.types is not None:
            return self.types[node.row]
        return self.session.entry_of(node).get("type")

    def _notable(self, nodes: list[Any], index: int) -> bool:
        node = nodes[index]
        return (
            index == 0
            or index >= len(nodes) - TAIL
            or node.id == self.leaf
            or node.label is not None
            or self._type(node) in SUMMARY_TYPES
        )

    def _mark(self, node_ids: list[str]) -> str:
        if self.leaf in node_ids:
            return self.paint("leaf", LEAF_MARK)
        if any(node_id in self.on_path for node_id in node_ids):
            return self.paint("path", PATH_MARK)
        return OFF_MARK

    def _entry_line(self, node: Any, indent: str) -> str:
        entry = self.session.entry_of(node)
        style = "leaf" if node.id == self.leaf else "path" if node.id in self.on_path else "off"
        label = f" {self.paint('label', f'[{node.label}]')}" if node.label is not None else ""
        text = describe(entry)
        if entry.get("type") in SUMMARY_TYPES:
            text = self.paint("summary", text)
        elif style == "off":
            text = self.paint("off", text)
        body = f"{self.paint(style, node.id)}{label} {text}"
        return f"{self._mark([node.id])} {self.paint('connector', indent)}{body}"

    def _fold_line(self, hidden: list[Any], indent: str) -> str:
        ids = [node.id for node in hidden]
        text = self.paint("fold", f"… {len(hidden)} entries …")
        return f"{self._mark(ids)} {self.paint('connector', indent)}{text}"

    def _run_lines(self, run: _Run) -> list[str]:
        nodes = run.nodes
        lines: list[str] = []
        index = 0
        while index < len(nodes):
            indent = run.first_prefix if index == 0 else run.prefix
            if self.full or self._notable(nodes, index):
                lines.append(self._entry_line(nodes[index], indent))
                index += 1
                continue
            end = index
            while end < len(nodes) and not self._notable(nodes, end):
                end += 1
            if end - index < FOLD_MIN:
                lines.extend(self._entry_line(node, run.prefix) for node in nodes[index:end])
            else:
                lines.append(self._fold_line(nodes[index:end], run.prefix))
            index = end
        return lines

    def lines(self, limit: int | None = None) -> list[str]:
        """The tree's lines; with ``limit``, at most that many and a last line saying so."""
        roots = build_tree(self.session)
        if len(roots) > 1:  # several roots: drawn as branches of one invisible root
            stack = [(root, "", LAST if i == 0 else BRANCH) for i, root in enumerate(roots[::-1])]
        else:
            stack = [(root, "", "") for root in roots]
        seen: set[int] = set()
        lines: list[str] = []
        while stack:
            node, prefix, connector = stack.pop()
            if id(node) in seen:
                continue
            nodes = _collect_run(node, seen)
            inner = prefix + (PIPE if connector == BRANCH else BLANK if connector == LAST else "")
            lines.extend(self._run_lines(_Run(nodes, inner, prefix + connector)))
            if limit is not None and len(lines) > limit:
                return [*lines[:limit], f"  … (cut at {limit} lines; see tether session tree FILE)"]
            children = nodes[-1].children
            for i, child in enumerate(reversed(children)):
                stack.append((child, inner, LAST if i == 0 else BRANCH))
        return lines


def render_tree_view(
    session: Any, *, full: bool = False, colour: bool = False, limit: int | None = None
) -> list[str]:
    """The tree of ``session`` as lines (see :class:`TreeView`)."""
    return TreeView(session, full=full, colour=colour).lines(limit)


__all__ = ["TreeView", "render_tree_view", "use_colour"]
