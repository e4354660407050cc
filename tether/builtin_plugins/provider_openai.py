"""Built-in plugin `provider_openai` (not yet implemented)."""

from __future__ import annotations
