"""Compaction and branch summaries: the orchestration around the strategy and summarizer plugins."""
