"""Built-in plugin ``rpc_commands``: ``tether rpc`` (``tether --mode rpc``), pi's RPC mode.

The session and model options are those of ``chat`` and ``run`` (``--provider``, ``--model``
— ``provider/id``, optionally ``:<thinking>`` as pi takes it —, ``--thinking``, ``--session
PATH|ID``, ``-c/--continue``, ``--fork``, ``--no-session``, ``--name``, ``--wait``, …), plus
``--models a,b`` (the models ``cycle_model`` cycles through). Commands on stdin, responses and
events on stdout (:mod:`.server`, started by :mod:`.main`); warnings on stderr.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from tether.builtin_plugins.commands import SessionOptions
from tether.builtin_plugins.commands.agent import with_session_options
from tether.hookspecs import hookimpl


@hookimpl
def register_commands(app: Any) -> None:
    @app.command("rpc")
    @with_session_options
    def rpc(
        ctx: typer.Context,
        models: Annotated[
            str | None,
            typer.Option("--models", help="Models the cycle_model command cycles through (a,b)."),
        ] = None,
        **session_options: Any,
    ) -> None:
        """pi's RPC mode: JSON commands on stdin, responses and events on stdout."""
        from tether.builtin_plugins.commands.rpc.main import serve, split_thinking

        model, thinking = split_thinking(session_options["model"], session_options["thinking"])
        options = SessionOptions(**{**session_options, "model": model, "thinking": thinking})
        raise typer.Exit(serve(ctx.obj, options, models))
