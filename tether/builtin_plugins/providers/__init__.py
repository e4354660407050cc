"""LLM providers (OpenAI-compatible, Anthropic, the offline faux), their HTTP client and the
retry policy."""
