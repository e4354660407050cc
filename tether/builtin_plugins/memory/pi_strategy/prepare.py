"""pi 0.73's compaction preparation over a raw branch, with tether's fixes (see below).

``prepare_compaction_entries(path, settings, count)`` decides what a compaction summarizes:
the history before the cut (from the previous compaction's first kept entry on), the prefix
of a split turn, the cumulative file operations and the size of the context being replaced.
Every step is one linear pass at most; token counts are asked only for the messages walked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tether.builtin_plugins.memory.pi_strategy.cut_points import (
    Count,
    CutPoint,
    Entry,
    find_cut_point,
)
from tether.builtin_plugins.memory.prune.stage import (
    MIN_PRUNED_TOKENS,
    PRUNE_TYPE,
    placeholder,
)
from tether.builtin_plugins.memory.token_estimate import estimate_tokens
from tether.hookspecs.events import CompactionPreparation, CompactionSettings, NothingToCompact
from tether.memory import (
    FileOps,
    assistant_usage,
    calculate_context_tokens,
    compaction_summary_message,
    context_message,
    message_from_entry,
)

ALREADY_COMPACTED = "Already compacted"
TOO_SMALL = "Nothing to compact (session too small)"
ALL_KEPT = (
    "Nothing to compact: the messages since {since} fit in the {keep} recent tokens kept "
    "verbatim (keepRecentTokens); the whole context is {tokens} tokens"
)


def last_compaction_index(path: Sequence[Entry]) -> int:
    """Index of the last compaction entry on ``path``, or -1."""
    for i in range(len(path) - 1, -1, -1):
        if path[i].get("type") == "compaction":
            return i
    return -1


def _index_of(path: Sequence[Entry], entry_id: Any, end: int) -> int:
    for i in range(end):
        if path[i].get("id") == entry_id:
            return i
    return -1


def boundary_start(path: Sequence[Entry], previous_index: int) -> int:
    """Where the history to summarize starts: the previous compaction's first kept entry."""
    if previous_index < 0:
        return 0
    found = _index_of(path, path[previous_index].get("firstKeptEntryId"), len(path))
    return found if found >= 0 else previous_index + 1


def _context_indices_newest_first(path: Sequence[Entry], compaction: int):
    """Indices of the path entries in the built context, newest first (pi's context rules)."""
    yield from range(len(path) - 1, compaction, -1)
    if compaction >= 0:
        kept = _index_of(path, path[compaction].get("firstKeptEntryId"), compaction)
        if kept >= 0:
            yield from range(compaction - 1, kept - 1, -1)


def tokens_before(path: Sequence[Entry], count: Count, compaction: int | None = None) -> int:
    """pi's ``estimateContextTokens(buildSessionContext(path).messages).tokens``.

    The last valid usage in the branch's context plus estimates of the messages after it —
    computed walking back from the leaf, so only that tail is visited and counted.
    """
    if compaction is None:
        compaction = last_compaction_index(path)
    trailing: list[dict[str, Any]] = []
    for i in _context_indices_newest_first(path, compaction):
        entry = path[i]
        message = entry.get("message") if entry.get("type") == "message" else None
        if message is None or not isinstance(message, dict):
            message = context_message(entry)
            if message is None:
                continue
        usage = assistant_usage(message)
        if usage is not None:
            return calculate_context_tokens(usage) + (sum(count(trailing)) if trailing else 0)
        trailing.append(message)
    if compaction >= 0:
        trailing.append(compaction_summary_message(path[compaction]))
    return sum(count(trailing)) if trailing else 0


def _collect(
    path: Sequence[Entry], start: int, end: int, ops: FileOps, pruned_to: int = -1
) -> tuple[list[dict], list[str]]:
    """The messages of ``path[start:end]`` and their entry ids; their tool calls go to ``ops``
    (in the same pass: a 100k-entry branch is walked once). A tool result at an index up to
    ``pruned_to`` is summarized as the pruning stage sent it (:func:`pruned_view`)."""
    messages: list[dict[str, Any]] = []
    ids: list[str] = []
    add_message, add_id, add_calls = messages.append, ids.append, ops.add_message
    for i in range(start, end):
        entry = path[i]
        kind = entry.get("type")
        if kind == "message":
            message = entry.get("message")
            if i <= pruned_to:
                message = pruned_view(message, str(entry.get("id", "")))
        elif kind == "custom_message" or kind == "branch_summary":
            message = message_from_entry(entry)
        else:
            continue
        if isinstance(message, dict):
            add_message(message)
            add_id(entry.get("id", ""))
            if message.get("role") == "assistant":
                add_calls(message)
    return messages, ids


def pruned_through(path: Sequence[Entry]) -> int:
    """The index of the newest tool result the pruning stage left out of the live context
    (its newest ``tether.prune`` step's ``through``), or -1: nothing was pruned."""
    for i in range(len(path) - 1, -1, -1):
        entry = path[i]
        if entry.get("type") == "custom" and entry.get("customType") == PRUNE_TYPE:
            data = entry.get("data")
            through = data.get("through") if isinstance(data, dict) else None
            return _index_of(path, through, i) if isinstance(through, str) else -1
    return -1


def pruned_view(message: Any, entry_id: str) -> Any:
    """A tool result as the model last saw it: the pruning stage's placeholder when it was
    pruned (a failed call keeps its output: the fact ledger reads its error line)."""
    if not isinstance(message, dict) or message.get("role") != "toolResult":
        return message
    if message.get("isError") or not entry_id:
        return message
    tokens = estimate_tokens(message)
    return message if tokens < MIN_PRUNED_TOKENS else placeholder(message, entry_id, tokens)


def _previous_file_ops(path: Sequence[Entry], previous_index: int) -> FileOps:
    """The previous (non-plugin) compaction's file lists; :func:`_collect` adds the tool
    calls summarized now."""
    ops = FileOps()
    if previous_index >= 0 and not path[previous_index].get("fromHook"):
        ops.add_details(path[previous_index].get("details"))
    return ops


def prepare_compaction_entries(
    path: Sequence[Entry],
    settings: CompactionSettings,
    count: Count,
    *,
    pi_quirks: bool = False,
    pruned: bool = True,
) -> CompactionPreparation | NothingToCompact:
    """Prepare a compaction of ``path`` (the active branch, root first).

    Returns :class:`NothingToCompact` when the branch ends with a compaction, has no entry
    to keep, or has nothing before the cut to summarize. ``pi_quirks=True``
    reproduces pi 0.73 exactly: split turns decided on the moved cut and an empty
    preparation instead of "nothing to compact". ``pruned``: tool results the pruning stage
    left out of the live context are summarized as their placeholders (pruning on).
    """
    if path and path[-1].get("type") == "compaction":
        return NothingToCompact(ALREADY_COMPACTED)
    previous_index = last_compaction_index(path)
    previous_summary = path[previous_index].get("summary") if previous_index >= 0 else None
    start = boundary_start(path, previous_index)
    before = tokens_before(path, count, previous_index)
    cut: CutPoint = find_cut_point(
        path, start, len(path), settings.keep_recent_tokens, count, pi_quirks=pi_quirks
    )
    kept_index = cut.first_kept_entry_index
    first_kept = path[kept_index] if kept_index < len(path) else None
    if not first_kept or not first_kept.get("id"):
        return NothingToCompact(TOO_SMALL)
    history_end = cut.turn_start_index if cut.is_split_turn else cut.first_kept_entry_index
    ops = _previous_file_ops(path, previous_index)
    pruned_to = pruned_through(path) if pruned else -1
    to_summarize, summarized_ids = _collect(path, start, history_end, ops, pruned_to)
    prefix, prefix_ids = ([], [])
    if cut.is_split_turn:
        prefix, prefix_ids = _collect(
            path, cut.turn_start_index, cut.first_kept_entry_index, ops, pruned_to
        )
    if not pi_quirks and not to_summarize and not prefix:
        since = "the last compaction" if previous_index >= 0 else "the start"
        keep = settings.keep_recent_tokens
        return NothingToCompact(ALL_KEPT.format(since=since, keep=keep, tokens=before))
    return CompactionPreparation(
        first_kept_entry_id=first_kept["id"],
        messages_to_summarize=to_summarize,
        turn_prefix_messages=prefix,
        is_split_turn=cut.is_split_turn,
        tokens_before=before,
        previous_summary=previous_summary,
        file_ops=ops.to_json(),
        settings=settings,
        summarized_entry_ids=summarized_ids,
        turn_prefix_entry_ids=prefix_ids,
        strategy="pi",
        extra={
            "boundaryStart": start,
            "firstKeptEntryIndex": cut.first_kept_entry_index,
            "turnStartIndex": cut.turn_start_index,
            "previousCompactionIndex": previous_index,
        },
    )


__all__ = [
    "ALREADY_COMPACTED",
    "TOO_SMALL",
    "boundary_start",
    "last_compaction_index",
    "prepare_compaction_entries",
    "tokens_before",
]
