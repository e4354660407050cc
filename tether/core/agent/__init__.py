"""One run and the agent across runs: the loop, running and collecting tools, the system
prompt's assembly (what a tool, a provider and a prompt section are: :mod:`tether.hookspecs`)."""
