"""One run and the agent across runs: the loop, tools, providers and their registry, the system
prompt's assembly."""
