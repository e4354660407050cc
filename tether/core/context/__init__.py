"""What the model sees: the context built from a branch, conversion to LLM messages, token
counts, safe text and numbers."""
