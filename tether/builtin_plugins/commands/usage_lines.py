"""Built-in plugin ``usage_lines``: a required argument reads ``PROMPT`` in a usage line.

typer writes a required argument as ``{prompt}`` (``{files}...``) in a usage line; click's
(and every manual's) convention is ``PROMPT`` (``FILES...``): an argument's metavar, else its
name in capitals. This plugin makes typer follow it for every command of ``tether`` (it
changes typer's argument class once, when commands are registered); without it, usage lines
are typer's own.
"""

from __future__ import annotations

from typing import Any

from tether.hookspecs import hookimpl


def _plain_required_metavar(original: Any) -> Any:
    """typer writes a required argument as ``{prompt}`` (``{files}...``) in a usage line;
    click's (and every manual's) convention is ``PROMPT`` (``FILES...``): an argument's
    metavar, else its name in capitals."""

    def make_metavar(argument: Any, ctx: Any, *, usage: bool = False) -> str:
        if usage and argument.required and argument.nargs in (1, -1):
            plain = str(argument.metavar or (argument.name or "").upper())
            return plain if argument.nargs == 1 or plain.endswith("...") else f"{plain}..."
        return str(original(argument, ctx, usage=usage))

    make_metavar.plain = True  # type: ignore[attr-defined]
    return make_metavar


def use_plain_metavars() -> None:
    """Make typer write required arguments as click does (once per process)."""
    import typer.core

    if not getattr(typer.core.TyperArgument.make_metavar, "plain", False):
        typer.core.TyperArgument.make_metavar = _plain_required_metavar(  # type: ignore[method-assign]
            typer.core.TyperArgument.make_metavar
        )


@hookimpl
def register_commands(app: Any) -> None:
    use_plain_metavars()


__all__ = ["use_plain_metavars"]
