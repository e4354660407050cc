"""Built-in plugin ``rpc_commands``: ``tether rpc`` (``tether --mode rpc``), pi's RPC mode.

pi's flags: ``--provider``, ``--model/-m`` (``provider/id``, optionally ``:<thinking>``),
``--thinking``, ``--session PATH|ID``, ``-c/--continue``, ``--fork``, ``--no-session``,
``--name``, ``--models a,b`` (the models ``cycle_model`` cycles through) and ``--wait``.
Commands on stdin, responses and events on stdout (:mod:`.server`, started by :mod:`.main`);
warnings on stderr.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from tether.builtin_plugins.commands.agent import (
    ContinueOpt,
    ForkOpt,
    NameOpt,
    NoSessionOpt,
    ProviderOpt,
    SessionOpt,
    ThinkingOpt,
)
from tether.core.host.cli import WaitOpt
from tether.hookspecs import hookimpl


@hookimpl
def register_commands(app: Any) -> None:
    @app.command("rpc")
    def rpc(
        ctx: typer.Context,
        continue_recent: ContinueOpt = False,
        session: SessionOpt = None,
        fork: ForkOpt = None,
        no_session: NoSessionOpt = False,
        name: NameOpt = None,
        provider: ProviderOpt = None,
        model: Annotated[
            str | None,
            typer.Option("--model", "-m", help="Model id or provider/id, optionally :<thinking>."),
        ] = None,
        thinking: ThinkingOpt = None,
        models: Annotated[
            str | None, typer.Option("--models", help="Models cycle_model cycles through (a,b).")
        ] = None,
        wait: WaitOpt = None,
    ) -> None:
        """pi's RPC mode: JSON commands on stdin, responses and events on stdout."""
        from tether.builtin_plugins.commands.agent.setup import SessionOptions
        from tether.builtin_plugins.commands.rpc.main import serve, split_thinking

        model, thinking = split_thinking(model, thinking)
        options = SessionOptions(
            continue_recent=continue_recent,
            session=session,
            fork=fork,
            no_session=no_session,
            name=name,
            provider=provider,
            model=model,
            thinking=thinking,
            wait=wait,
        )
        raise typer.Exit(serve(ctx.obj, options, models))
