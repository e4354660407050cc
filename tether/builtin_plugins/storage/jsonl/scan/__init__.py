"""Indexing a JSONL session: the scanner, its lines left in the file, batch parsing."""
