"""Where the kept part of a compacted context may start (pi's valid cut points), and the
check every compaction's ``firstKeptEntryId`` must pass.

A cut may land on a user, assistant, bash, custom or summary message, a custom message entry
or a branch summary; never on a ``toolResult``, which must stay with the assistant message
that called the tool (a request with a result and no call is refused by OpenAI and
Anthropic). The kept entry must be on the branch being compacted: an id that is not (an
entry of another branch, or no entry at all) would leave only the summary in the context.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Entry = dict[str, Any]

CUT_ROLES = frozenset(
    {"user", "assistant", "bashExecution", "custom", "branchSummary", "compactionSummary"}
)
"""Message roles a cut may land on (never ``toolResult``: it must stay with its call)."""

USER_ROLE_ENTRY_TYPES = frozenset({"branch_summary", "custom_message"})
"""Entry types that reach the model as user messages: valid cut points and turn starts."""


def entry_role(entry: Entry) -> str | None:
    """The role of a message entry's message (``None`` for other entries)."""
    message = entry.get("message")
    return message.get("role") if isinstance(message, dict) else None


def role_in(entry: Entry, roles: frozenset[str]) -> bool:
    """Is ``entry`` a message entry with one of ``roles``, or an entry of
    :data:`USER_ROLE_ENTRY_TYPES` (they reach the model as user messages)?"""
    kind = entry.get("type")
    if kind == "message":
        return entry_role(entry) in roles
    return kind in USER_ROLE_ENTRY_TYPES


def is_cut_point(entry: Entry) -> bool:
    """May the kept part of the context start at this entry?"""
    return role_in(entry, CUT_ROLES)


def find_valid_cut_points(entries: Sequence[Entry], start: int, end: int) -> list[int]:
    """Indices in ``[start, end)`` where a cut may land, ascending."""
    return [i for i in range(start, end) if is_cut_point(entries[i])]


def cut_problem(path: Sequence[Entry], first_kept_id: Any) -> str | None:
    """Why ``first_kept_id`` cannot start the kept part of ``path`` (the branch compacted,
    root first, up to its leaf), or ``None`` when it can."""
    for entry in path:
        if entry.get("id") == first_kept_id:
            if entry.get("type") == "message" and entry_role(entry) == "toolResult":
                return (
                    f"the first kept entry '{first_kept_id}' is a toolResult "
                    "(the kept part would start without its tool call)"
                )
            return None
    return f"the first kept entry {first_kept_id!r} is not on the branch being compacted"


__all__ = [
    "CUT_ROLES",
    "USER_ROLE_ENTRY_TYPES",
    "cut_problem",
    "find_valid_cut_points",
    "is_cut_point",
]
