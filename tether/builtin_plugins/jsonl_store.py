"""Built-in plugin `jsonl_store` (not yet implemented)."""

from __future__ import annotations
