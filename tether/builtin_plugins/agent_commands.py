"""Built-in plugin ``agent_commands``: the agent itself — ``tether chat`` and ``tether run``.

``tether`` / ``tether chat [PROMPT]`` is the interactive chat (see ``_agent_chat``);
``tether run PROMPT`` is print mode: the final answer on stdout (``--json``: every event as
one JSON line, the session header first), then exit — 0 on success, 1 when the model call
failed (one ``tether: error:`` line), 130 when interrupted. ``PROMPT`` ``-`` reads stdin.

Both take the session options ``-c/--continue``, ``-r/--resume``, ``--session PATH|ID``,
``--fork PATH|ID``, ``--no-session``, ``--name`` and the model options ``--provider``,
``--model``, ``--thinking``, and ``--wait [SECONDS]`` (wait for another process writing the
session instead of failing at once, see ``_lease_cli``). ``tether run --provider faux
"hello"`` works with no configuration and no network.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer

from tether.core.cli import WaitOpt
from tether.hookspecs import hookimpl

ContinueOpt = Annotated[
    bool, typer.Option("--continue", "-c", help="Continue the most recent session here.")
]
ResumeOpt = Annotated[
    bool, typer.Option("--resume", "-r", help="Pick a session to resume (run: the most recent).")
]
SessionOpt = Annotated[
    str | None, typer.Option("--session", metavar="PATH|ID", help="Open this session.")
]
ForkOpt = Annotated[
    str | None,
    typer.Option("--fork", metavar="PATH|ID", help="Copy this session into a new one here."),
]
NoSessionOpt = Annotated[
    bool, typer.Option("--no-session", help="Keep the session in memory only.")
]
NameOpt = Annotated[str | None, typer.Option("--name", help="Name the session.")]
ProviderOpt = Annotated[
    str | None, typer.Option("--provider", help="Provider from models.json (e.g. faux).")
]
ModelOpt = Annotated[str | None, typer.Option("--model", help="Model id, or provider/model.")]
ThinkingOpt = Annotated[
    str | None,
    typer.Option("--thinking", help="off, minimal, low, medium, high or xhigh."),
]

# The session and model options of ``chat`` and ``run``, in ``--help`` order (the fields of
# ``_agent_setup.SessionOptions``).
SESSION_PARAMETERS = tuple(
    inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=option)
    for name, option, default in (
        ("continue_recent", ContinueOpt, False),
        ("resume", ResumeOpt, False),
        ("session", SessionOpt, None),
        ("fork", ForkOpt, None),
        ("no_session", NoSessionOpt, False),
        ("name", NameOpt, None),
        ("provider", ProviderOpt, None),
        ("model", ModelOpt, None),
        ("thinking", ThinkingOpt, None),
        ("wait", WaitOpt, None),
    )
)


def with_session_options(command: Callable[..., None]) -> Callable[..., None]:
    """Declare :data:`SESSION_PARAMETERS` as ``command``'s last CLI parameters, in place of
    its ``**session_options``, which receives them."""
    own = inspect.signature(command, eval_str=True).parameters.values()
    kept = [p for p in own if p.kind is not inspect.Parameter.VAR_KEYWORD]
    command.__signature__ = inspect.Signature([*kept, *SESSION_PARAMETERS])
    return command


def _plugin_manager(ctx: typer.Context) -> Any:
    """The app's plugin manager: the kernel puts it on every context it creates."""
    if ctx.obj is None:
        raise RuntimeError("no plugin manager on the command context")
    return ctx.obj


def _options(**values: Any) -> Any:
    from tether.builtin_plugins._agent_setup import SessionOptions

    return SessionOptions(**values)


def run_print(pm: Any, options: Any, prompt: str, as_json: bool) -> None:
    """``tether run``: one prompt, the answer (or the events) on stdout.

    A failed model call or an interruption raises :class:`TetherError` (exit 1 / 130)."""
    from tether.builtin_plugins._agent_output import JsonLines, run_interruptibly
    from tether.builtin_plugins._agent_setup import build_harness
    from tether.core.errors import TetherError

    if prompt == "-":
        prompt = sys.stdin.read()
    harness, reason = build_harness(pm, options)
    lines = JsonLines() if as_json else None
    if lines is not None:
        lines.write(dict(harness.session.header))
        harness.subscribe(lines)
    harness.start(reason)
    try:
        result, interrupted = run_interruptibly(
            lambda: harness.prompt(prompt, source="run"), harness.abort
        )
    finally:
        harness.close("quit")
    if interrupted or result.stop_reason == "aborted":
        raise TetherError("interrupted", exit_code=130)
    if result.handled:
        return
    if result.stop_reason == "error":
        raise TetherError(f"model call failed: {result.error}")
    if lines is None:
        sys.stdout.write(result.text + ("" if result.text.endswith("\n") else "\n"))
        sys.stdout.flush()


@hookimpl
def register_commands(app: Any) -> None:
    @app.command("chat")
    @with_session_options
    def chat(
        ctx: typer.Context,
        prompt: Annotated[str | None, typer.Argument(help="A first prompt.")] = None,
        **session_options: Any,
    ) -> None:
        """Chat with the agent in this project (the default command)."""
        from tether.builtin_plugins._agent_chat import run_chat

        run_chat(_plugin_manager(ctx), _options(**session_options), prompt)

    @app.command("run")
    @with_session_options
    def run(
        ctx: typer.Context,
        prompt: Annotated[str, typer.Argument(help="The prompt ('-': read stdin).")],
        as_json: Annotated[
            bool, typer.Option("--json", help="Print every event as a JSON line.")
        ] = False,
        **session_options: Any,
    ) -> None:
        """Run one prompt and print the answer (print mode)."""
        run_print(_plugin_manager(ctx), _options(**session_options), prompt, as_json)
