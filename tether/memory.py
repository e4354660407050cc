"""The public toolkit for memory plugins (strategies, summarizers, token counters) and the
commands that drive them: pi's entry-to-message rules, token figures, the chosen counter and
strategy, and the text helpers summaries are built from. Cut points, the token estimate and
file operations are in :mod:`tether.rules`. See docs/plugins.md ("Public modules").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tether._lazy import lazy_exports

if TYPE_CHECKING:  # the exports: what type checkers see, and what lazy_exports reads
    from tether.builtin_plugins.memory.content_parts import block_parts
    from tether.builtin_plugins.memory.context_usage import context_usage
    from tether.builtin_plugins.memory.summary_file_lists import strip_file_lists
    from tether.builtin_plugins.storage.format.jscompat import js_stringify
    from tether.core.choices.registry import KINDS, choose, registered
    from tether.core.choices.running import check_choices, run_strategy, token_counter
    from tether.core.context.content_text import content_text
    from tether.core.context.cuts import USER_ROLE_ENTRY_TYPES, entry_role, role_in
    from tether.core.context.entry_messages import (
        compaction_summary_message,
        context_message,
        message_from_entry,
        model_of_source,
    )
    from tether.core.context.file_tracking import file_lists
    from tether.core.context.tokens import (
        assistant_usage,
        calculate_context_tokens,
        should_compact,
    )
    from tether.core.harness.compaction import context_tokens
    from tether.core.memory.compaction import compaction_settings
    from tether.core.memory.summary_requests import summary_budgets
    from tether.hookspecs.file_ops import FileOps
    from tether.hookspecs.gate import gate_line

__getattr__, __dir__ = lazy_exports(__name__, globals())
