"""The CLI's commands: chat/run, session inspection, context, compaction.

Below: the CLI parameters the ``tether session …`` commands share, declared once (here, in
the package, so loading a command plugin loads no helper module).

``session prepare|compact|branch`` (compaction_commands), ``session context|estimate``
(context_commands) and ``session show|tree|…`` (session_commands) take the same session-file
argument, ``--leaf``, ``--json`` and ``--counter``, with the same defaults; ``prepare``,
``compact``, ``estimate`` and ``stats`` those of ``--window``, ``--reserve``, ``--keep`` and
``--counter`` they use (:func:`with_token_options`); ``chat``, ``run`` and ``rpc`` the session
and model options of :class:`SessionOptions`.
"""

from __future__ import annotations

import inspect
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from tether.cli import WaitOpt

_Command = TypeVar("_Command", bound=Callable[..., None])
_CAMEL_HUMP = re.compile(r"[A-Z]")
SESSION_HELP = "Inspect and change session files."
DEFAULT_WINDOW = 128000
DEFAULT_RESERVE = 16384
DEFAULT_KEEP = 20000


def add_session_commands(app: typer.Typer, **commands: Any) -> None:
    """Add ``commands`` (name → function) to the ``tether session`` group."""
    from tether.cli import command_group

    group = command_group(app, "session", SESSION_HELP)
    for name, command in commands.items():
        group.command(name)(command)


def _session_ref(value: str) -> Path:
    """The FILE argument; an empty one is refused by name (``Path("")`` would read as ``.``)."""
    if not value:
        raise typer.BadParameter("empty: expected a session file, or a session id or id prefix")
    return Path(value)


def switch(*decls: str, help: str) -> Any:
    """A command's ``bool`` option, off unless given."""
    return Annotated[bool, typer.Option(*decls, help=help)]


def text_argument(metavar: str, help: str) -> Any:
    """A command's optional argument that takes a text, none unless given."""
    return Annotated[str | None, typer.Argument(metavar=metavar, help=help)]


def text_option(*decls: str, help: str, metavar: str | None = None) -> Any:
    """A command's option that takes a text, none unless given."""
    return Annotated[str | None, typer.Option(*decls, metavar=metavar, help=help)]


def json_fields(obj: Any, names: str, *, optional: str = "") -> dict[str, Any]:
    """``obj``'s attributes as a JSON object, in order: each of ``names`` (camelCase keys of
    snake_case attributes), then each of ``optional`` only when it is set (not empty)."""

    def attribute(key: str) -> Any:
        return getattr(obj, _CAMEL_HUMP.sub(lambda hump: "_" + hump[0].lower(), key))

    fields = {key: attribute(key) for key in names.split()}
    fields.update((key, value) for key in optional.split() if (value := attribute(key)))
    return fields


FileArg = Annotated[
    Path,
    typer.Argument(
        help="Session file (.jsonl); with a database store (--store), a session id or prefix.",
        show_default=False,
        parser=_session_ref,
        metavar="FILE",
    ),
]
LeafOpt = Annotated[
    str | None,
    typer.Option("--leaf", metavar="ID|null", help="Branch leaf (default: the session's leaf)."),
]
JsonOpt = switch("--json", help="Print JSON (pi's field names).")
PlainJsonOpt = switch("--json", help="Print JSON.")
CounterOpt = Annotated[
    str | None,
    typer.Option(
        "--counter", help="Token counter by name (default: the tokens.counter setting, else chars)."
    ),
]
WindowOpt = Annotated[
    int | None, typer.Option("--window", help="Context window (default: the session model's).")
]
ReserveOpt = Annotated[
    int | None,
    typer.Option("--reserve", help="Tokens reserved for the answer (default: settings)."),
]
KeepOpt = Annotated[
    int | None, typer.Option("--keep", help="Recent tokens kept verbatim (default: settings).")
]


def with_parameters(*parameters: inspect.Parameter) -> Callable[[_Command], _Command]:
    """Declare ``parameters`` as a command's last CLI parameters, in place of its
    ``**options``, which receives them: options several commands take, declared once."""

    def declare(command: _Command) -> _Command:
        own = inspect.signature(command, eval_str=True).parameters.values()
        kept = [p for p in own if p.kind is not inspect.Parameter.VAR_KEYWORD]
        command.__signature__ = inspect.Signature([*kept, *parameters])  # type: ignore[attr-defined]
        return command

    return declare


#: ``--window``, ``--reserve``, ``--keep`` and ``--counter`` as keyword parameters (none
#: unless given), by name.
TOKEN_OPTIONS = {
    name: inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=option)
    for name, option in (
        ("window", WindowOpt),
        ("reserve", ReserveOpt),
        ("keep", KeepOpt),
        ("counter", CounterOpt),
    )
}


def with_token_options(*names: str) -> Callable[[_Command], _Command]:
    """Declare the :data:`TOKEN_OPTIONS` ``names`` as a command's last CLI parameters, given
    to its ``**token_options`` under the same names."""
    return with_parameters(*(TOKEN_OPTIONS[name] for name in names))


@dataclass
class SessionOptions:
    """The session and model options of ``chat``, ``run`` and ``rpc``: each field is declared
    as the CLI option that sets it, in ``--help`` order (see
    :func:`tether.builtin_plugins.commands.agent.with_session_options`)."""

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
        from tether.cli import UsageError

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


def file_store(path: Path | str) -> Any:
    """The store of the session file ``path``, from the plugins' ``open_store`` hook (the
    built-in ``jsonl_store`` for a plain path), with the command's plugin manager."""
    from tether.builtin_plugins.commands.store_select import plugin_manager
    from tether.storage import open_store

    return open_store(path, plugins=plugin_manager())


def store_configured() -> bool:
    """Whether a session store other than JSONL files is chosen (``--store``, ``TETHER_STORE``,
    ``session.store``); read without loading the store modules (start-up stays fast)."""
    from tether import peek_setting

    value = peek_setting("session", "store")
    return not (value is None or (isinstance(value, str) and value.strip() in ("", "jsonl")))


def open_session_file(path: Path, *, readonly: bool = True, validate_all: bool = False) -> Any:
    """The session in an existing file, for the commands that need one (every ``session …``
    command). A missing file, or one holding only whitespace, is one error line: ``FILE: no
    such session file`` / ``FILE: empty file (no session header)``. (``run``/``chat --session``
    instead start a new session in an empty file, as pi does.)"""
    from tether import Session, SessionFileError
    from tether.builtin_plugins.commands.store_select import plugin_manager

    if store_configured():
        from tether.builtin_plugins.commands.store_select import (
            active_database,
            open_stored_session,
        )

        return open_stored_session(
            active_database(),
            str(path),
            readonly=readonly,
            validate_all=validate_all,
        )
    store = file_store(path)
    loaded = store.load(readonly=readonly, validate_all=validate_all)
    if loaded.header is None:
        why = "empty file (no session header)" if loaded.exists else "no such session file"
        raise SessionFileError(f"{path}: {why}")
    return Session(store=store, loaded=loaded, readonly=readonly, plugins=plugin_manager())
