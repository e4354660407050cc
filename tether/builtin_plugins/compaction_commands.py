"""Built-in plugin `compaction_commands` (not yet implemented)."""

from __future__ import annotations
