"""Built-in plugin `tool_bash` (not yet implemented)."""

from __future__ import annotations
