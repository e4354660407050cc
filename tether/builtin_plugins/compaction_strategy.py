"""Built-in plugin `compaction_strategy` (not yet implemented)."""

from __future__ import annotations
