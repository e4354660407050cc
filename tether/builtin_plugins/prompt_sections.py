"""Built-in plugin `prompt_sections` (not yet implemented)."""

from __future__ import annotations
