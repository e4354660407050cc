"""pi's rules a compaction strategy needs, as public functions (also names of ``tether``).

- **entry → message**: :func:`message_from_entry` (pi's ``getMessageFromEntry``: a message,
  custom message, branch summary or compaction entry as the agent message it stands for) and
  :func:`context_message` (what the entry adds to the context: no compaction, no empty branch
  summary);
- **file operations**: :class:`FileOps` collects the ``read``/``write``/``edit`` tool calls
  of assistant messages (``add_message``) and an earlier summary's lists (``add_details``);
  ``to_json()`` is the ``file_ops`` of a :class:`tether.CompactionPreparation`.
  :func:`file_operations` does it in one call; :func:`file_lists` and
  :func:`format_file_lists` give the ``(read, modified)`` lists and the summary's
  ``<read-files>``/``<modified-files>`` blocks;
- **token estimate**: :func:`estimate_tokens` (pi's ``ceil(chars / 4)`` of one message; the
  ``chars`` counter). A strategy should count with ``request.count`` (the counter the user
  chose) and use this only where pi's estimate itself is meant; :func:`assistant_usage` (the
  usage of a completed assistant message) and :func:`calculate_context_tokens` (pi's
  context size from a usage) anchor an estimate on what the provider reported;
- **cut points**: :func:`is_cut_point`, :func:`find_valid_cut_points` (where the kept part may
  start: never a ``toolResult``) and :func:`cut_problem`, the check tether applies to every
  strategy's ``first_kept_entry_id``;
- **content blocks**: :func:`is_image`, the one test of an image block the context rules and
  the built-in providers share.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tether.builtin_plugins.memory.token_estimate import estimate_tokens
from tether.builtin_plugins.providers.message_check import message_issues, sanitize_message
from tether.core.context.convert import is_image
from tether.core.context.cuts import cut_problem, find_valid_cut_points, is_cut_point
from tether.core.context.entry_messages import context_message, message_from_entry, timestamp_ms
from tether.core.context.file_tracking import file_lists, format_file_lists
from tether.core.context.tokens import assistant_usage, calculate_context_tokens
from tether.hookspecs.file_ops import FileOps


def file_operations(
    messages: Iterable[Mapping[str, Any]], previous_details: Any = None
) -> dict[str, list[str]]:
    """``{"read", "written", "edited"}`` path lists of ``messages``' tool calls, after the
    lists of ``previous_details`` (the ``details`` of the compaction being continued)."""
    ops = FileOps()
    ops.add_details(previous_details)
    for message in messages:
        ops.add_message(message)
    return ops.to_json()


__all__ = [
    "FileOps",
    "assistant_usage",
    "calculate_context_tokens",
    "context_message",
    "cut_problem",
    "estimate_tokens",
    "file_lists",
    "file_operations",
    "find_valid_cut_points",
    "format_file_lists",
    "is_cut_point",
    "is_image",
    "message_from_entry",
    "message_issues",
    "sanitize_message",
    "timestamp_ms",
]
