"""The session and model options of ``tether chat``, ``run`` and ``rpc``, declared once: each
field of :class:`SessionOptions` is the CLI option that sets it (see
:func:`tether.builtin_plugins.commands.agent.with_session_options`)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Annotated, Any

import typer

from tether.cli import UsageError, WaitOpt


@dataclass
class SessionOptions:
    """The session and model options of ``chat``, ``run`` and ``rpc``: each field is declared
    as the CLI option that sets it, in ``--help`` order (:func:`with_session_options`)."""

    continue_recent: Annotated[
        bool, typer.Option("--continue", "-c", help="Continue the most recent session here.")
    ] = False
    resume: Annotated[
        bool,
        typer.Option("--resume", "-r", help="Pick a session to resume (run: the most recent)."),
    ] = False
    session: Annotated[
        str | None, typer.Option("--session", metavar="PATH|ID", help="Open this session.")
    ] = None
    fork: Annotated[
        str | None,
        typer.Option("--fork", metavar="PATH|ID", help="Copy this session into a new one here."),
    ] = None
    no_session: Annotated[
        bool, typer.Option("--no-session", help="Keep the session in memory only.")
    ] = False
    name: Annotated[str | None, typer.Option("--name", help="Name the session.")] = None
    provider: Annotated[
        str | None, typer.Option("--provider", help="Provider from models.json (e.g. faux).")
    ] = None
    model: Annotated[
        str | None, typer.Option("--model", "-m", help="Model id, or provider/model.")
    ] = None
    api_key: Annotated[
        str | None,
        typer.Option(
            "--api-key",
            metavar="KEY",
            help="API key of the chosen model's provider, for this process only.",
        ),
    ] = None
    thinking: Annotated[
        str | None, typer.Option("--thinking", help="off, minimal, low, medium, high or xhigh.")
    ] = None
    system_prompt: Annotated[
        str | None,
        typer.Option(
            "--system-prompt",
            metavar="TEXT|FILE",
            help="Replace the default system prompt (context files and skills are still added).",
        ),
    ] = None
    append_system_prompt: Annotated[
        str | None,
        typer.Option(
            "--append-system-prompt", metavar="TEXT|FILE", help="Append this to the system prompt."
        ),
    ] = None
    tools: Annotated[
        str | None,
        typer.Option("--tools", "-t", metavar="A,B", help="Only these tools (e.g. read,grep,ls)."),
    ] = None
    no_tools: Annotated[
        bool,
        typer.Option(
            "--no-tools", help="No built-in tools (plugin tools stay; --tools adds back)."
        ),
    ] = False
    instructions: Annotated[
        str | None,
        typer.Option(
            "--instructions",
            metavar="TEXT",
            help="Added to the summary prompt of every compaction (compaction.instructions).",
        ),
    ] = None
    session_dir: Annotated[
        str | None,
        typer.Option("--session-dir", metavar="DIR", help="Keep and look for sessions in DIR."),
    ] = None
    no_prune: Annotated[
        bool,
        typer.Option("--no-prune", help="Send old tool output whole (no pruning; pi's context)."),
    ] = False
    wait: WaitOpt = None

    def settings_overrides(self) -> dict[str, Any]:
        """``--system-prompt``, ``--append-system-prompt``, ``--instructions``, ``--session-dir``
        and ``--no-prune`` as settings (``systemPrompt``, ``appendSystemPrompt``,
        ``compaction.instructions``, ``session.dir``, ``compaction.prune.enabled``): they win
        over the files."""
        out: dict[str, Any] = {}
        if self.instructions is not None:
            out["compaction"] = {"instructions": self.instructions}
        if self.system_prompt is not None:
            out["systemPrompt"] = self.system_prompt
        if self.append_system_prompt is not None:
            out["appendSystemPrompt"] = self.append_system_prompt
        if self.session_dir is not None:
            out["session"] = {"dir": os.path.abspath(os.path.expanduser(self.session_dir))}
        if self.no_prune:  # with --instructions: both
            out.setdefault("compaction", {})["prune"] = {"enabled": False}
        return out

    def check(self) -> None:
        chosen = [
            flag
            for flag, on in (
                ("--continue", self.continue_recent),
                ("--resume", self.resume),
                ("--session", self.session is not None),
                ("--fork", self.fork is not None),
                ("--no-session", self.no_session),
            )
            if on
        ]
        if len(chosen) > 1:
            raise UsageError(f"{' and '.join(chosen)} cannot be used together")


__all__ = ["SessionOptions"]
