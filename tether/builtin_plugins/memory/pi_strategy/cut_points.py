"""Where a compaction cuts the active branch (pi 0.73's ``findCutPoint``, with a fix).

Pure functions over raw entry dicts (root first). ``count`` turns agent messages into token
counts (``count(messages) -> list[int]``, a token counter's shape).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tether import find_valid_cut_points, is_cut_point
from tether.memory import entry_role, role_in

Entry = dict[str, Any]
Count = Callable[[list[dict[str, Any]]], list[int]]

TURN_START_ROLES = frozenset({"user", "bashExecution"})

_COUNT_BATCH = 64


@dataclass(frozen=True)
class CutPoint:
    """``first_kept_entry_index``; for a split turn, where that turn starts (else -1)."""

    first_kept_entry_index: int
    turn_start_index: int
    is_split_turn: bool


def is_turn_start(entry: Entry) -> bool:
    """Does this entry start a turn (user / bash message, custom message, branch summary)?"""
    return role_in(entry, TURN_START_ROLES)


def _next_cut_point(entries: Sequence[Entry], start: int, end: int) -> int | None:
    """The first of :func:`find_valid_cut_points` ``(entries, start, end)``, or ``None``."""
    return next((i for i in range(start, end) if is_cut_point(entries[i])), None)


def find_turn_start_index(entries: Sequence[Entry], index: int, start: int) -> int:
    """The nearest turn start at or before ``index`` (not before ``start``), or -1."""
    for i in range(index, start - 1, -1):
        if is_turn_start(entries[i]):
            return i
    return -1


def _budget_crossing_index(
    entries: Sequence[Entry], start: int, end: int, keep_recent_tokens: int, count: Count
) -> int | None:
    """Walk back from ``end``; the index of the message where the kept tokens reach the budget.

    Only ``message`` entries count. Messages are counted in small batches, so a long branch
    costs only as much as the part actually walked.
    """
    accumulated = 0
    i = end - 1
    while i >= start:
        batch_indices: list[int] = []
        batch: list[dict[str, Any]] = []
        while i >= start and len(batch) < _COUNT_BATCH:
            entry = entries[i]
            if entry.get("type") == "message":
                batch_indices.append(i)
                batch.append(entry["message"])
            i -= 1
        if not batch:
            continue
        for index, tokens in zip(batch_indices, count(batch), strict=True):
            accumulated += tokens
            if accumulated >= keep_recent_tokens:
                return index
    return None


def _extend_over_bookkeeping(entries: Sequence[Entry], cut: int, start: int) -> int:
    """Move the cut back over non-message entries (model/thinking changes, labels…) before it."""
    while cut > start:
        kind = entries[cut - 1].get("type")
        if kind in ("message", "compaction"):
            break
        cut -= 1
    return cut


def find_cut_point(
    entries: Sequence[Entry],
    start: int,
    end: int,
    keep_recent_tokens: int,
    count: Count,
    *,
    pi_quirks: bool = False,
) -> CutPoint:
    """Keep roughly the newest ``keep_recent_tokens`` of ``entries[start:end]``.

    The cut lands on the first valid cut point at or after the message where the budget is
    reached (the first cut point when it never is), then moves back over bookkeeping
    entries. A split turn is decided on that real cut point: the cut splits a turn only
    when the turn containing it started before the kept part. ``pi_quirks=True`` reproduces
    pi, which decides on the moved cut and so calls a cut just after a model change before a
    user message (or any cut at a bash / custom message) a split turn.
    """
    first = _next_cut_point(entries, start, end)
    if first is None:
        return CutPoint(start, -1, False)
    crossing = _budget_crossing_index(entries, start, end, keep_recent_tokens, count)
    original = first
    if crossing is not None:  # the first cut point at or after it (only the tail is looked at)
        after = _next_cut_point(entries, max(crossing, first), end)
        if after is not None:
            original = after
    cut = _extend_over_bookkeeping(entries, original, start)

    if pi_quirks:
        entry = entries[cut]
        if entry.get("type") == "message" and entry_role(entry) == "user":
            return CutPoint(cut, -1, False)
        turn_start = find_turn_start_index(entries, cut, start)
        return CutPoint(cut, turn_start, turn_start != -1)

    turn_start = find_turn_start_index(entries, original, start)
    if turn_start == -1 or turn_start >= cut:
        return CutPoint(cut, -1, False)
    return CutPoint(cut, turn_start, True)


__all__ = [
    "CutPoint",
    "find_cut_point",
    "find_turn_start_index",
    "find_valid_cut_points",
    "is_cut_point",
    "is_turn_start",
]
