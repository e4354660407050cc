"""Built-in plugin `provider_anthropic` (not yet implemented)."""

from __future__ import annotations
