"""Built-in plugin `tool_write` (not yet implemented)."""

from __future__ import annotations
