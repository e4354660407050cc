"""Which entries of a path (root to leaf) make its context: pi's rule, in one place.

The context needs the last compaction on the path (its summary comes first), the entries from
its ``firstKeptEntryId`` on that can hold a message (``message``, ``custom_message``,
``branch_summary``) — whatever kind of entry that id names, and nothing before the compaction
when it names no entry before it — and the last entries that set the thinking level and the
model (an assistant message sets the model too), which may come before the kept part: those
only set. :func:`plan` works on the entry types alone, with callbacks for the rest, so the
entry table (``tether.core.session.context_rows``) and a list of parsed entries
(:func:`~tether.core.context.build.build_context_from_path`) share it;
:class:`~tether.core.context.stream.ContextStream` then turns the planned entries into messages.
"""

from __future__ import annotations

import operator
from bisect import insort
from collections.abc import Callable, Sequence
from itertools import compress
from typing import Any

CONTEXT_TYPES = frozenset({"message", "custom_message", "branch_summary"})


def plan(
    kinds: Sequence[Any],
    is_assistant: Callable[[int], bool],
    ids_before: Callable[[int], list[Any]],
    first_kept_of: Callable[[int], Any],
) -> tuple[list[int], int, int]:
    """The positions of the path's ``kinds`` (entry types) that can change its context, in
    path order; how many of them (a prefix: before the first kept entry) only set the
    thinking level or the model; and the position of the last compaction (-1: none).

    ``is_assistant(i)``: whether the ``message`` at ``i`` is an assistant's;
    ``ids_before(c)``: the ids of the entries before ``c``; ``first_kept_of(c)``: the
    ``firstKeptEntryId`` of the compaction at ``c``.
    """
    kinds = kinds if isinstance(kinds, list) else list(kinds)
    compaction = _last(kinds, "compaction")
    thinking = _last(kinds, "thinking_level_change")
    model = -1
    for i in range(len(kinds) - 1, -1, -1):
        kind = kinds[i]
        if kind == "model_change" or (kind == "message" and is_assistant(i)):
            model = i
            break
    start = 0
    if compaction >= 0:
        try:
            start = ids_before(compaction).index(first_kept_of(compaction))
        except ValueError:  # not before the compaction: nothing before it is kept
            start = compaction + 1
    setters = {thinking, model, compaction} - {-1}
    before = sorted(i for i in setters if i < start)
    kept = [
        *before,
        *compress(range(start, len(kinds)), map(CONTEXT_TYPES.__contains__, kinds[start:])),
    ]
    for i in setters:  # the few after ``start`` that hold no message: in path order too
        if i >= start and kinds[i] not in CONTEXT_TYPES:
            insort(kept, i)
    return kept, len(before), compaction


def stream_order(kept: list[int], compaction: int) -> list[int]:
    """``kept`` in the order a context stream reads it: the last compaction first."""
    if compaction < 0:
        return kept
    at = kept.index(compaction)  # planned: it is the last compaction
    return [compaction, *kept[:at], *kept[at + 1 :]]


def _last(items: list[Any], value: str) -> int:
    """The last index of ``value`` in ``items``, or -1 (read from the end, not copied)."""
    try:
        return len(items) - 1 - operator.indexOf(reversed(items), value)
    except ValueError:
        return -1


__all__ = ["CONTEXT_TYPES", "plan", "stream_order"]
