"""Helpers the built-in tools share: paths, output truncation, file walks, listings."""
