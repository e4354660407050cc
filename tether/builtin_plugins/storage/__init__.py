"""Session storage backends (JSONL files)."""
