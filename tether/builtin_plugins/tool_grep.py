"""Built-in plugin `tool_grep` (not yet implemented)."""

from __future__ import annotations
