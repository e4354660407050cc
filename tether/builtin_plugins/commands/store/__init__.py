"""Built-in plugin ``store_commands``: ``tether session import FILE… --store URI [--json]``.

Copies JSONL session files into a database store, each byte of each line kept (a v1/v2 file is
migrated to v3 first, as opening it for writing would; the file itself is not changed).
Prints one ``FILE → ID`` line per file, or with ``--json`` ``[{"file", "sessionId"}]``.
``session export ID --store URI -o FILE`` (in ``session_commands``) gives the bytes back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from tether.builtin_plugins.commands import SESSION_HELP, PlainJsonOpt
from tether.cli import command_group
from tether.hookspecs import hookimpl


@hookimpl
def register_commands(app: Any) -> None:
    group = command_group(app, "session", SESSION_HELP)

    @group.command("import")
    def import_command(
        files: Annotated[
            list[Path], typer.Argument(help="Session files (.jsonl).", metavar="FILE...")
        ],
        as_json: PlainJsonOpt = False,
    ) -> None:
        """Copy session files into the database store (--store URI); prints their ids."""
        from tether.builtin_plugins.commands.store.listing import import_files

        import_files(files, as_json)
