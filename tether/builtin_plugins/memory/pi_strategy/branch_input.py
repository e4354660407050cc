"""What a branch summary is made of (pi's ``prepareBranchEntries``): the built-in answer to
the ``prepare_branch_summary`` hook.

When the leaf moves away from a branch, the entries between the old leaf and the common
ancestor with the target are abandoned (the kernel collects them). Their messages (tool
results left out, compactions and branch summaries as their summaries) are taken newest first
while they fit a token budget — pi's ``contextWindow − branchSummary.reserveTokens`` — and the
file lists come from earlier branch summaries plus the messages walked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from tether.hookspecs.branch import BranchPreparation
from tether.hookspecs.events import Entry
from tether.memory import FileOps, message_from_entry

Count = Callable[[list[dict[str, Any]]], list[int]]
"""Token counts of messages (a token counter's shape)."""

DEFAULT_CONTEXT_WINDOW = 128000
"""pi's window when the model's is unknown."""
SUMMARY_ENTRY_SHARE = 0.9
"""A summary entry that does not fit is still taken while less than 90% of the budget is used."""

_COUNT_BATCH = 64


def branch_message(entry: Entry) -> dict[str, Any] | None:
    """The message an abandoned entry contributes to its summary (tool results: none, as pi)."""
    message = message_from_entry(entry)
    if message is None or message.get("role") == "toolResult":
        return None
    return message


def branch_token_budget(context_window: int | None, reserve_tokens: int) -> int:
    """pi's budget: ``(contextWindow or 128000) − reserveTokens`` (≤ 0: no limit)."""
    return (context_window or DEFAULT_CONTEXT_WINDOW) - reserve_tokens


def _summary_file_ops(entries: Sequence[Entry]) -> FileOps:
    """File ops recorded by the branch summaries tether/pi wrote (not plugin-supplied ones)."""
    ops = FileOps()
    for entry in entries:
        if entry.get("type") == "branch_summary" and not entry.get("fromHook"):
            ops.add_details(entry.get("details"))
    return ops


def _newest_first(
    entries: Sequence[Entry], count: Count
) -> Iterator[tuple[Entry, dict[str, Any], int]]:
    """``(entry, message, tokens)`` from newest to oldest, counted in small batches."""
    i = len(entries) - 1
    while i >= 0:
        batch: list[tuple[Entry, dict[str, Any]]] = []
        while i >= 0 and len(batch) < _COUNT_BATCH:
            message = branch_message(entries[i])
            if message is not None:
                batch.append((entries[i], message))
            i -= 1
        if batch:
            tokens = count([message for _, message in batch])
            for (entry, message), size in zip(batch, tokens, strict=True):
                yield entry, message, size


def prepare_branch_entries(
    entries: Sequence[Entry], token_budget: int, count: Count
) -> BranchPreparation:
    """Pick the newest messages of ``entries`` that fit ``token_budget`` (≤ 0 = no limit).

    File ops come from every non-plugin branch summary's details and from the tool calls of
    the messages walked (including the one that stopped the walk), as in pi.
    """
    prep = BranchPreparation(file_ops=_summary_file_ops(entries))
    picked: list[tuple[str, dict[str, Any]]] = []
    for entry, message, tokens in _newest_first(entries, count):
        prep.file_ops.add_message(message)
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
    "DEFAULT_CONTEXT_WINDOW",
    "Count",
    "branch_message",
    "branch_token_budget",
    "prepare_branch_entries",
]
