"""Built-in plugin `session_commands` (not yet implemented)."""

from __future__ import annotations
