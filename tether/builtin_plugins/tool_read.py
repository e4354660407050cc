"""Built-in plugin `tool_read` (not yet implemented)."""

from __future__ import annotations
