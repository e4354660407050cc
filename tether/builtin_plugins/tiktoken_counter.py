"""Built-in plugin `tiktoken_counter` (not yet implemented)."""

from __future__ import annotations
