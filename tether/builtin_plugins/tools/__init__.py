"""The built-in tools: read, write, edit, bash, grep, find, ls."""
