"""Built-in plugin `agent_commands` (not yet implemented)."""

from __future__ import annotations
