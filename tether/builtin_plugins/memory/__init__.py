"""Memory: the compaction strategy, the summarizers, the token counters."""
