"""The JSONL store's fast context: entries read again in large reads, the context encoded once."""
