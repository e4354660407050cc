"""Built-in plugin `context_commands` (not yet implemented)."""

from __future__ import annotations
