"""Built-in plugin `offline_summarizer` (not yet implemented)."""

from __future__ import annotations
