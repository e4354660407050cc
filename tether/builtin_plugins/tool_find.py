"""Built-in plugin `tool_find` (not yet implemented)."""

from __future__ import annotations
