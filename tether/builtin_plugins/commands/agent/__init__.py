"""Built-in plugin ``agent_commands``: the agent itself — ``tether chat`` and ``tether run``.

``tether`` / ``tether chat [PROMPT]`` is the interactive chat (see ``_agent_chat``);
``tether run PROMPT…`` is print mode: the final answer on stdout (``--json``: every event as
one compact JSON line, the session header first), then exit — 0 on success, 1 when the model
call failed (one ``tether: error:`` line), 130 when interrupted (Ctrl-C), 143/129 on
SIGTERM/SIGHUP (the turn is aborted and the bash tool's processes killed first). As pi's
print mode, piped stdin and ``@FILE`` arguments are merged into the first message and several
messages are sent in turn (:mod:`.inputs`); a ``PROMPT`` ``-`` reads stdin.

Both take the session options ``-c/--continue``, ``-r/--resume``, ``--session PATH|ID``,
``--fork PATH|ID``, ``--no-session``, ``--name``, the model options ``--provider``,
``--model``, ``--api-key`` (this process only), ``--thinking``, the tool options ``--tools``,
``--no-tools``, ``--instructions TEXT`` (the setting ``compaction.instructions`` for this
process), ``--no-prune`` (old tool output sent whole: pi's context), and ``--wait
[SECONDS]`` (wait for another process writing the session instead of failing at once, see
``_lease_cli``). ``tether run --provider faux
"hello"`` works with no configuration and no network.
"""

from __future__ import annotations

import inspect
import sys
from typing import Annotated, Any

import typer

from tether.builtin_plugins.commands import (
    PlainJsonOpt,
    SessionOptions,
    switch,
    text_argument,
    with_parameters,
)
from tether.hookspecs import hookimpl

#: The fields of :class:`SessionOptions` as keyword-only CLI parameters.
SESSION_PARAMETERS = tuple(
    p.replace(kind=inspect.Parameter.KEYWORD_ONLY)
    for p in inspect.signature(SessionOptions, eval_str=True).parameters.values()
)


#: Declares :data:`SESSION_PARAMETERS` as a command's last CLI parameters, in place of its
#: ``**session_options``, which receives them.
with_session_options = with_parameters(*SESSION_PARAMETERS)


def _plugin_manager(ctx: typer.Context) -> Any:
    """The app's plugin manager: the kernel puts it on every context it creates."""
    if ctx.obj is None:
        raise RuntimeError("no plugin manager on the command context")
    return ctx.obj


def run_print(
    pm: Any, options: Any, prompts: list[str], as_json: bool, quiet: bool = False
) -> None:
    """``tether run``: the prompts (with piped stdin and ``@FILE``s, :mod:`.inputs`) in turn,
    then the last answer (or every event) on stdout.

    A failed model call or an interruption raises :class:`TetherError` (exit 1 / 130 / 143 /
    129) and the later prompts are not sent. A session that cannot be written raises
    :class:`SessionWriteError` after the reply that could not be saved is printed (nothing the
    model said is lost)."""
    from tether.builtin_plugins.commands.agent.feedback import RunFeedback
    from tether.builtin_plugins.commands.agent.inputs import read_inputs
    from tether.builtin_plugins.commands.agent.output import JsonLines
    from tether.builtin_plugins.commands.agent.setup import build_harness

    inputs = read_inputs(prompts)  # a missing @FILE fails before any session is opened
    harness, reason = build_harness(pm, options)
    lines = JsonLines() if as_json else None
    if lines is not None:
        lines.write(dict(harness.session.header))
        harness.subscribe(lines)
    gave_up: list[str] = []  # why a transient error was not retried (e.g. Retry-After too long)
    harness.subscribe(lambda event: _note_give_up(event, gave_up))
    feedback = RunFeedback(quiet=quiet or as_json)  # retries, compactions: stderr lines
    harness.subscribe(feedback)
    harness.start(reason)
    answer: str | None = None
    try:
        takes_images = "image" in (getattr(harness.model, "input", None) or ())
        for text, images in inputs.turns(takes_images, _warn):
            said = _one_turn(harness, text, images, lines is not None, feedback, gave_up)
            answer = answer if said is None else said  # pi prints the last answer only
    finally:
        harness.close("quit")
    if lines is None and answer is not None:
        _print_text(answer)


def _one_turn(
    harness: Any,
    text: str,
    images: list[dict[str, Any]],
    as_json: bool,
    feedback: Any,
    gave_up: list[str],
) -> str | None:
    """One prompt to its end: the answer's text (``None``: a plugin handled the prompt); a
    failure or an interruption raises."""
    from tether import HookError, TetherError
    from tether.builtin_plugins.commands.agent.feedback import failure_text
    from tether.builtin_plugins.commands.agent.output import run_interruptibly, stop_message
    from tether.cli import HookInterrupted, SessionWriteError

    try:
        result, signum = run_interruptibly(
            lambda: harness.prompt(text, images or None, source="run"), harness.abort
        )
    except HookInterrupted as exc:  # Ctrl-C in an input/before_agent_start hook
        where = f"plugin '{exc.plugin}' ({exc.hook} hook)"
        raise TetherError(f"interrupted in {where}; the turn was aborted", exit_code=130) from exc
    except SessionWriteError as exc:
        unsaved = _reply_text(exc.unsaved)
        if not as_json and unsaved:  # --json already printed the reply's events
            _print_text(unsaved)
        raise
    if signum:
        raise TetherError(stop_message(signum), exit_code=128 + signum)
    if result.stop_reason == "aborted":
        raise TetherError("interrupted", exit_code=130)
    if result.handled:
        return None
    if result.stop_reason == "error" and isinstance(result.failure, HookError):
        raise result.failure  # a plugin failed (e.g. its context hook): not the model's fault
    if result.stop_reason == "error":
        why = gave_up[-1] if gave_up else ""
        raise TetherError(failure_text(result.error, feedback.attempts, why))
    return str(result.text)


def _warn(text: str) -> None:
    sys.stderr.write(f"tether: warning: {text}\n")
    sys.stderr.flush()


def _print_text(text: str) -> None:
    sys.stdout.write(text + ("" if text.endswith("\n") else "\n"))
    sys.stdout.flush()


def _reply_text(messages: list[Any]) -> str:
    """The text of the assistant messages among ``messages`` (a reply that was not saved)."""
    return "".join(
        block.get("text", "")
        for message in messages
        if message.get("role") == "assistant"
        for block in message.get("content") or []
        if isinstance(block, dict) and block.get("type") == "text"
    )


def _note_give_up(event: Any, reasons: list[str]) -> None:
    if event.type == "auto_retry_end" and not event.data.get("success"):
        reason = event.data.get("reason")
        if reason:
            reasons.append(str(reason))


@hookimpl
def register_commands(app: Any) -> None:
    @app.command("chat")
    @with_session_options
    def chat(
        ctx: typer.Context,
        prompts: Annotated[
            list[str] | None,
            typer.Argument(
                metavar="[@FILE]... [PROMPT]...",
                help="First prompts, sent in turn; @FILE inlines a file into the first.",
            ),
        ] = None,
        **session_options: Any,
    ) -> None:
        """Chat with the agent in this project (the default command)."""
        from tether.builtin_plugins.commands.agent.chat import run_chat

        run_chat(_plugin_manager(ctx), SessionOptions(**session_options), prompts or [])

    @app.command("run")
    @with_session_options
    def run(
        ctx: typer.Context,
        prompts: Annotated[
            list[str] | None,
            typer.Argument(
                metavar="[@FILE]... [PROMPT]...",
                help=(
                    "Prompts, sent in turn; @FILE inlines a file and piped stdin is merged "
                    "into the first ('-': stdin as a prompt)."
                ),
            ),
        ] = None,
        as_json: switch("--json", help="Print every event as a JSON line.") = False,
        quiet: switch("--quiet", "-q", help="No retry or compaction lines on stderr.") = False,
        **session_options: Any,
    ) -> None:
        """Run prompts in turn and print the last answer (print mode)."""
        run_print(
            _plugin_manager(ctx), SessionOptions(**session_options), prompts or [], as_json, quiet
        )

    @app.command("models")
    def models(
        ctx: typer.Context,
        search: text_argument("[SEARCH]", help="Only models matching these words.") = None,
        as_json: PlainJsonOpt = False,
    ) -> None:
        """Providers and models: context window, max output, reasoning, inputs, key present."""
        from tether.builtin_plugins.commands.agent.models import print_models

        print_models(_plugin_manager(ctx), search, as_json)
