"""Built-in plugin `tool_edit` (not yet implemented)."""

from __future__ import annotations
