"""The top layer of the kernel: the command line (typer app, argv rewrites, stdout guard)."""
