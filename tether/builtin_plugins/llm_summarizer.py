"""Built-in plugin `llm_summarizer` (not yet implemented)."""

from __future__ import annotations
