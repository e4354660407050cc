"""Input of a branch summary (pi's ``collectEntriesForBranchSummary`` + ``prepareBranchEntries``).

When the leaf moves away from a branch, the entries between the old leaf and the common
ancestor are summarized, newest first within a token budget.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tether.builtin_plugins._cut_points import Count, Entry
from tether.builtin_plugins._file_ops import FileOps, extract_file_ops

DEFAULT_CONTEXT_WINDOW = 128000
SUMMARY_ENTRY_SHARE = 0.9
"""A summary entry that does not fit is still taken while less than 90% of the budget is used."""

_COUNT_BATCH = 64


@dataclass
class BranchPreparation:
    """Messages to summarize (chronological), their estimated tokens and the file ops."""

    messages: list[dict[str, Any]] = field(default_factory=list)
    total_tokens: int = 0
    file_ops: FileOps = field(default_factory=FileOps)
    entry_ids: list[str] = field(default_factory=list)


def branch_token_budget(context_window: int | None, reserve_tokens: int) -> int:
    """pi's budget: ``(contextWindow or 128000) - reserveTokens``."""
    return (context_window or DEFAULT_CONTEXT_WINDOW) - reserve_tokens


GetEntry = Callable[[str], "Entry | None"]


def _path_ids(get_entry: GetEntry, leaf_id: str | None) -> list[str]:
    """Ids from ``leaf_id`` up to its root (leaf first); stops at a missing entry."""
    ids: list[str] = []
    seen: set[str] = set()
    current = leaf_id
    while current is not None and current not in seen:
        entry = get_entry(current)
        if entry is None:
            break
        seen.add(current)
        ids.append(current)
        current = entry.get("parentId")
    return ids


def collect_branch_entries(
    get_entry: GetEntry, old_leaf_id: str | None, target_id: str
) -> tuple[list[Entry], str | None]:
    """Entries from the old leaf back to the common ancestor with ``target_id``.

    ``get_entry`` looks an entry up by id (``Session.get_entry`` or ``dict.get``). Returns
    ``(entries in chronological order, common_ancestor_id)``. Compaction entries on the way
    are included. No old leaf → nothing to summarize.
    """
    if not old_leaf_id:
        return [], None
    old_path = set(_path_ids(get_entry, old_leaf_id))
    ancestor: str | None = None
    for entry_id in _path_ids(get_entry, target_id):  # deepest first
        if entry_id in old_path:
            ancestor = entry_id
            break
    entries: list[Entry] = []
    current: str | None = old_leaf_id
    seen: set[str] = set()
    while current and current != ancestor and current not in seen:
        seen.add(current)
        entry = get_entry(current)
        if entry is None:
            break
        entries.append(entry)
        current = entry.get("parentId")
    entries.reverse()
    return entries, ancestor


def message_for_branch(entry: Entry) -> dict[str, Any] | None:
    """The agent message an entry contributes to a branch summary (tool results: none)."""
    from tether.core import context

    kind = entry.get("type")
    if kind == "message":
        message = entry.get("message")
        if not isinstance(message, dict) or message.get("role") == "toolResult":
            return None
        return message
    if kind == "custom_message":
        return context.custom_message_from_entry(entry)
    if kind == "branch_summary":
        return context.branch_summary_message(entry)
    if kind == "compaction":
        return context.compaction_summary_message(entry)
    return None


def _summary_file_ops(entries: Sequence[Entry]) -> FileOps:
    ops = FileOps()
    for entry in entries:
        if entry.get("type") == "branch_summary" and not entry.get("fromHook"):
            if entry.get("details"):
                ops.add_details(entry["details"])
    return ops


def _newest_first(entries: Sequence[Entry], count: Count):
    """Yield ``(entry, message, tokens)`` from newest to oldest, counting in batches."""
    i = len(entries) - 1
    while i >= 0:
        batch: list[tuple[Entry, dict[str, Any]]] = []
        while i >= 0 and len(batch) < _COUNT_BATCH:
            message = message_for_branch(entries[i])
            if message is not None:
                batch.append((entries[i], message))
            i -= 1
        if batch:
            tokens = count([m for _, m in batch])
            for (entry, message), t in zip(batch, tokens, strict=True):
                yield entry, message, t


def prepare_branch_entries(
    entries: Sequence[Entry], token_budget: int, count: Count
) -> BranchPreparation:
    """Pick the newest messages of ``entries`` that fit ``token_budget`` (0 = no limit).

    File operations come from every pi-written branch summary's details and from the tool
    calls of the messages walked (including the one that stopped the walk), as in pi.
    """
    prep = BranchPreparation(file_ops=_summary_file_ops(entries))
    picked: list[tuple[str, dict[str, Any]]] = []
    for entry, message, tokens in _newest_first(entries, count):
        extract_file_ops(message, prep.file_ops)
        if token_budget > 0 and prep.total_tokens + tokens > token_budget:
            is_summary = entry.get("type") in ("compaction", "branch_summary")
            if is_summary and prep.total_tokens < token_budget * SUMMARY_ENTRY_SHARE:
                picked.append((entry.get("id", ""), message))
                prep.total_tokens += tokens
            break
        picked.append((entry.get("id", ""), message))
        prep.total_tokens += tokens
    picked.reverse()
    prep.entry_ids = [entry_id for entry_id, _ in picked]
    prep.messages = [message for _, message in picked]
    return prep


__all__ = [
    "BranchPreparation",
    "branch_token_budget",
    "collect_branch_entries",
    "message_for_branch",
    "prepare_branch_entries",
]
