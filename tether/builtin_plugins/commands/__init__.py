"""The CLI's commands: chat/run, session inspection, context, compaction.

Below: the CLI parameters the ``tether session …`` commands share, declared once (here, in
the package, so loading a command plugin loads no helper module).

``session prepare|compact|branch`` (compaction_commands), ``session context|estimate``
(context_commands) and ``session show|tree|…`` (session_commands) take the same session-file
argument, ``--leaf``, ``--json`` and ``--counter``, with the same defaults.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any

import typer

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
