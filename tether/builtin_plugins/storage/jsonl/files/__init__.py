"""Careful file work for JSONL sessions: durable writes, file safety, the session lease."""
