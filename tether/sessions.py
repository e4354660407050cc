"""The public toolkit for commands over stored sessions: where sessions live, finding them,
pins, and pi's session statistics. See docs/plugins.md ("Public modules").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tether._lazy import lazy_exports

if TYPE_CHECKING:  # the exports: what type checkers see, and what lazy_exports reads
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
    from tether.core.session.reader import bulk

__getattr__, __dir__ = lazy_exports(__name__, globals())
