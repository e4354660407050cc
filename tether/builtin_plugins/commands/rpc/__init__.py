"""Built-in plugin ``rpc_commands``: ``tether rpc`` (``tether --mode rpc``), pi's RPC mode.

pi's flags: ``--provider``, ``--model/-m`` (``provider/id``, optionally ``:<thinking>``),
``--thinking``, ``--session PATH|ID``, ``-c/--continue``, ``--fork``, ``--no-session``,
``--name``, ``--models a,b`` (the models ``cycle_model`` cycles through) and ``--wait``.
Commands on stdin, responses and events on stdout (:mod:`.server`); warnings on stderr.
The process ends at the end of stdin (0) or on SIGTERM (143) / SIGHUP (129), after aborting
the running turn and killing the processes of its tools and of ``bash``.
"""

from __future__ import annotations

import signal
import sys
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

THINKING_SUFFIXES = ("off", "minimal", "low", "medium", "high", "xhigh")


def split_thinking(model: str | None, thinking: str | None) -> tuple[str | None, str | None]:
    """pi's ``--model provider/id:high``: the ``:<level>`` suffix is the thinking level."""
    if model and ":" in model:
        head, _, level = model.rpartition(":")
        if level in THINKING_SUFFIXES and head:
            return head, thinking or level
    return model, thinking


def scoped_models(harness: Any, patterns: str | None) -> list[Any]:
    """The models of ``--models a,b`` (``provider/id`` or an id), in the order given."""
    if not patterns:
        return []
    models = harness.registry.models()
    out = []
    for pattern in (p.strip() for p in patterns.split(",") if p.strip()):
        out += [m for m in models if pattern in (m.ref, m.id) and m not in out]
    return out


def serve(pm: Any, options: Any, models: str | None) -> int:
    """Run the RPC server on this process's stdin/stdout until EOF; the exit code."""
    from tether.builtin_plugins.commands.agent.setup import build_harness
    from tether.builtin_plugins.commands.rpc.server import RpcServer

    protocol = sys.stdout
    sys.stdout = sys.stderr  # nothing but the protocol on stdout (a plugin's print included)
    harness, reason = build_harness(pm, options)
    server = RpcServer(harness, protocol, scoped_models=scoped_models(harness, models))

    def stop(signum: int, frame: Any) -> None:
        harness.abort()
        server.bash.abort()
        raise SystemExit(128 + signum)

    previous = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        harness.start(reason)
        server.serve(sys.stdin.buffer)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        harness.close("quit")
    return 0


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
