"""The public toolkit for commands over stored sessions: where sessions live, finding them,
pins, and pi's session statistics. See docs/plugins.md ("Command plugins").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tether._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "sessions_root": "tether.core.base.paths",
    "default_session_dir": "tether.core.base.paths",
    "session_file_name": "tether.core.base.paths",
    "list_sessions": "tether.builtin_plugins.storage.jsonl.listing",
    "most_recent_session": "tether.builtin_plugins.storage.jsonl.listing",
    "project_folders": "tether.builtin_plugins.storage.jsonl.listing",
    "read_header": "tether.builtin_plugins.storage.jsonl.listing",
    "session_files": "tether.builtin_plugins.storage.jsonl.listing",
    "current_pins": "tether.builtin_plugins.memory.pins.pinning",
    "pin_entry": "tether.builtin_plugins.memory.pins.pinning",
    "pin_text": "tether.builtin_plugins.memory.pins.pinning",
    "unpin": "tether.builtin_plugins.memory.pins.pinning",
    "compaction_history": "tether.builtin_plugins.commands.stats.session_stats",
    "context_usage_of": "tether.builtin_plugins.commands.stats.session_stats",
    "session_stats": "tether.builtin_plugins.commands.stats.session_stats",
    "stats_text": "tether.builtin_plugins.commands.stats.session_stats",
    "economy_totals": "tether.builtin_plugins.commands.stats.session_stats",
    "prune_history": "tether.builtin_plugins.commands.stats.session_stats",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:  # what type checkers see; at run time __getattr__ imports lazily
    from tether.builtin_plugins.commands.stats.session_stats import (
        compaction_history,
        context_usage_of,
        economy_totals,
        prune_history,
        session_stats,
        stats_text,
    )
    from tether.builtin_plugins.memory.pins.pinning import current_pins, pin_entry, pin_text, unpin
    from tether.builtin_plugins.storage.jsonl.listing import (
        list_sessions,
        most_recent_session,
        project_folders,
        read_header,
        session_files,
    )
    from tether.core.base.paths import default_session_dir, session_file_name, sessions_root

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
