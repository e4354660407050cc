"""Choosing one registered summarizer, token counter or compaction strategy, and calling it."""
