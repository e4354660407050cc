"""The public toolkit for memory plugins (strategies, summarizers, token counters) and the
commands that drive them: pi's entry-to-message rules, token figures, the chosen counter and
strategy, and the text helpers summaries are built from. See docs/plugins.md
("Memory plugins").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tether._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "USER_ROLE_ENTRY_TYPES": "tether.core.context.cuts",
    "context_message": "tether.core.context.entry_messages",
    "compaction_summary_message": "tether.core.context.entry_messages",
    "message_from_entry": "tether.core.context.entry_messages",
    "model_of_source": "tether.core.context.entry_messages",
    "FileOps": "tether.core.context.file_tracking",
    "file_lists": "tether.core.context.file_tracking",
    "assistant_usage": "tether.core.context.tokens",
    "calculate_context_tokens": "tether.core.context.tokens",
    "should_compact": "tether.core.context.tokens",
    "context_tokens": "tether.core.harness.compaction",
    "content_text": "tether.core.context.content_text",
    "block_parts": "tether.core.context.content_text",
    "strip_pinned": "tether.core.context.pins",
    "js_stringify": "tether.builtin_plugins.storage.format.jscompat",
    "compaction_settings": "tether.core.memory.compaction",
    "gate_line": "tether.core.memory.gate",
    "check_choices": "tether.core.choices.running",
    "run_strategy": "tether.core.choices.running",
    "token_counter": "tether.core.choices.running",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:  # what type checkers see; at run time __getattr__ imports lazily
    from tether.builtin_plugins.storage.format.jscompat import js_stringify
    from tether.core.choices.running import check_choices, run_strategy, token_counter
    from tether.core.context.content_text import block_parts, content_text
    from tether.core.context.cuts import USER_ROLE_ENTRY_TYPES
    from tether.core.context.entry_messages import (
        compaction_summary_message,
        context_message,
        message_from_entry,
        model_of_source,
    )
    from tether.core.context.file_tracking import FileOps, file_lists
    from tether.core.context.pins import strip_pinned
    from tether.core.context.tokens import assistant_usage, calculate_context_tokens, should_compact
    from tether.core.harness.compaction import context_tokens
    from tether.core.memory.compaction import compaction_settings
    from tether.core.memory.gate import gate_line

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
