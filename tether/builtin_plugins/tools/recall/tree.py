"""What ``recall`` can search: every entry of the session tree that is not in the context.

Two kinds, each with where it is (:class:`Recallable`):

- on the active branch, the entries a compaction replaced — the union of every compaction's
  span (everything before its ``firstKeptEntryId``; before the compaction itself when that id
  is not on the branch before it), named by the latest compaction that replaced each;
- every entry off the active branch (abandoned branches). Its branch is named by its tip: the
  leaf the branch was left at when a branch summary records it (tether writes
  ``details.abandonedLeafId``), else the newest leaf below the entry. A branch summary that
  summarized the entry (it lies between the recorded leaf and the summary's own branch) names
  it; pi's branch summaries record no leaf, so no summary is named for those.

Entries without text (model changes, labels…) are left out. Active entries come first, in
branch order, then abandoned ones in file order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tether.tools import entry_text

Entry = dict[str, Any]


@dataclass(frozen=True)
class Recallable:
    """One entry ``recall`` can search or read, and where it is.

    ``branch`` is the id of the branch's tip (the leaf for the active branch), ``active``
    whether it is the active branch; ``compaction`` the compaction that replaced an active
    entry; ``summary`` the branch summary that summarized an abandoned one (if known)."""

    entry: Entry
    branch: str
    active: bool
    compaction: str = ""
    summary: str = ""

    @property
    def id(self) -> str:
        return str(self.entry.get("id"))

    def place(self) -> str:
        """Where the entry is, in words: ``active branch, replaced by compaction c1`` /
        ``abandoned branch b7 (summarized by branch summary s2)``."""
        if self.active:
            return f"active branch, replaced by compaction {self.compaction}"
        named = f" (summarized by branch summary {self.summary})" if self.summary else ""
        return f"abandoned branch {self.branch}{named}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "branch": self.branch, "active": self.active}
        if self.compaction:
            out["compaction"] = self.compaction
        if self.summary:
            out["branchSummary"] = self.summary
        return out


@dataclass
class Tree:
    """The recallable entries of a session, and the latest compaction of the active branch."""

    active: list[Recallable]
    abandoned: list[Recallable]
    compaction_id: str | None  # the latest compaction on the active branch

    @property
    def entries(self) -> list[Recallable]:
        return [*self.active, *self.abandoned]

    def branches(self) -> int:
        """How many abandoned branches hold recallable entries."""
        return len({r.branch for r in self.abandoned})

    def find(self, entry_id: str) -> Recallable | None:
        return next((r for r in self.entries if r.id == entry_id), None)


def _replaced(path: list[Entry], leaf: str) -> tuple[list[Recallable], str | None]:
    """The active branch's entries replaced by any compaction, each with the latest one."""
    by_entry: dict[int, str] = {}
    latest = None
    ids = [entry.get("id") for entry in path]
    for index, entry in enumerate(path):
        if entry.get("type") != "compaction":
            continue
        latest = str(entry.get("id"))
        first_kept = entry.get("firstKeptEntryId")
        cut = next((i for i in range(index) if ids[i] == first_kept), index)
        for i in range(cut):
            by_entry[i] = latest
    out = [
        Recallable(path[i], leaf, True, compaction=compaction)
        for i, compaction in sorted(by_entry.items())
        if entry_text(path[i])[1]
    ]
    return out, latest


def _summaries(entries: list[Entry], parents: dict[str, str | None]) -> dict[str, tuple[str, str]]:
    """Abandoned entry id → ``(branch summary id, the leaf it records)`` for tether's branch
    summaries (``details.abandonedLeafId``): the entries from that leaf back to the common
    ancestor with the summary's own branch."""

    def ancestors(entry_id: str | None) -> list[str]:
        out, seen = [], set()
        while entry_id is not None and entry_id in parents and entry_id not in seen:
            seen.add(entry_id)
            out.append(entry_id)
            entry_id = parents[entry_id]
        return out

    named: dict[str, tuple[str, str]] = {}
    for entry in entries:
        details = entry.get("details")
        if entry.get("type") != "branch_summary" or not isinstance(details, dict):
            continue
        left = details.get("abandonedLeafId")
        if not isinstance(left, str):
            continue
        summary = str(entry.get("id"))
        kept = set(ancestors(summary))
        for entry_id in ancestors(left):
            if entry_id in kept:
                break  # the common ancestor: the rest is shared with the summary's branch
            named.setdefault(entry_id, (summary, left))
    return named


def _tips(entries: list[Entry], parents: dict[str, str | None]) -> dict[str, str]:
    """Entry id → the newest entry with text at the end of a branch below it (itself when
    nothing with text is below; a leaf marker or a label is never a tip)."""
    children: dict[str, list[str]] = {}
    for entry_id, parent in parents.items():
        if parent is not None:
            children.setdefault(parent, []).append(entry_id)
    tips: dict[str, str] = {}
    for entry in reversed(entries):  # children come after their parent in the file
        entry_id = str(entry.get("id"))
        below = [tips[c] for c in children.get(entry_id, []) if c in tips]
        if below:
            tips[entry_id] = below[-1]
        elif entry_text(entry)[1]:
            tips[entry_id] = entry_id
    return tips


def recallable(session: Any) -> Tree:
    """The recallable entries of ``session`` (a ``PluginSession`` or ``Session``)."""
    path = session.get_branch()
    leaf = str(session.leaf_id) if session.leaf_id is not None else ""
    active, latest = _replaced(path, leaf)
    on_path = {entry.get("id") for entry in path}
    entries = [e for e in session.entries() if e.get("type") != "session" and e.get("id")]
    parents = {str(e["id"]): e.get("parentId") for e in entries}
    off = [e for e in entries if e.get("id") not in on_path]
    abandoned: list[Recallable] = []
    if off:
        tips, named = _tips(entries, parents), _summaries(entries, parents)
        for entry in off:
            if not entry_text(entry)[1]:
                continue
            entry_id = str(entry["id"])
            summary, left = named.get(entry_id, ("", ""))
            branch = left or tips.get(entry_id, entry_id)
            abandoned.append(Recallable(entry, branch, False, summary=summary))
    return Tree(active, abandoned, latest)


__all__ = ["Recallable", "Tree", "recallable"]
