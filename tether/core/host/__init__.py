"""The plugin host: finding, loading and blocking plugins, calling one implementation, and
tracing the calls."""
