"""One session's records on disk: the format, the JSONL store, file safety, migration, repair,
the writer lease."""
