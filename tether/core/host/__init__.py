"""The plugin host: plugin discovery and tracing, the hook caller, the CLI kernel, settings,
errors, paths."""
