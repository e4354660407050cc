"""Built-in plugin `tool_ls` (not yet implemented)."""

from __future__ import annotations
