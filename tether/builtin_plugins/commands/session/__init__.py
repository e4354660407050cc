"""Built-in plugin ``session_commands``: list sessions and inspect, copy and repair session files.

``tether sessions [--all] [--dir D] [--json]`` lists sessions (most recent first, one notion of
"most recent" shared with ``--continue``). ``tether session show|tree|fork|clone|export|repair
FILE`` work on one file; ``show`` and ``tree`` never modify it (legacy files are migrated in
memory only); ``repair`` holds the session's lease (``--wait [SECONDS]``, see ``_lease_cli``).
``tree --json`` uses the field names of pi's oracle (``roots, children, labels,
labelTimestamps, sessionName, branch``…), so it compares directly with pi's goldens.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from tether.builtin_plugins.commands import SESSION_HELP, FileArg, open_session_file
from tether.core.host.cli import WaitOpt, command_group
from tether.hookspecs import hookimpl

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]
OutOpt = Annotated[
    Path | None, typer.Option("--output", "-o", help="Where to write (must not exist).")
]


def _open(path: Path) -> Any:
    return open_session_file(path)


def _open_validated(path: Path) -> Any:
    """Read-only, every line parsed: a broken line is dropped exactly as pi drops it."""
    return open_session_file(path, validate_all=True)


def _print_json(value: Any) -> None:
    from tether.core.context.numbers import json_text

    sys.stdout.write(json_text(value, indent=1) + "\n")  # 1e999 → null, as pi writes it


def _warn_problems(session: Any, path: Path) -> None:
    for problem in session.problems:
        sys.stderr.write(f"tether: warning: {path}:{problem.line}: {problem.message}\n")


def _sessions(all_: bool, folder: Path | None, as_json: bool, search: str | None) -> None:
    from tether.builtin_plugins.commands import store_configured
    from tether.builtin_plugins.commands.agent.setup import project_folder
    from tether.core.host.paths import sessions_root
    from tether.core.session.listing import list_sessions, project_folders

    if folder is None and store_configured():
        from tether.builtin_plugins.commands.store.listing import print_rows
        from tether.builtin_plugins.commands.store_select import active_database

        database = active_database()
        rows = database.list_sessions(cwd=None if all_ else os.getcwd(), search=search)
        print_rows(database, rows, as_json)
        return
    if search is not None:
        from tether.core.host.errors import UsageError

        raise UsageError("--search needs a database store (--store sqlite:///… or postgresql://…)")
    if folder is not None:
        folders = project_folders(folder) if all_ else [folder]
    elif all_:
        folders = project_folders(sessions_root())
    else:
        from tether.core.host.settings import load_settings

        cwd = os.getcwd()
        folders = [project_folder(cwd, load_settings(cwd))]
    infos = list_sessions(folders)
    if as_json:
        _print_json([info.to_json() for info in infos])
        return
    if not infos:
        where = ", ".join(str(f) for f in folders) or "(no folders)"
        typer.echo(f"No sessions in {where}.")
        return
    for info in infos:
        title = info.name or info.first_message
        title = " ".join(title.split())
        title = title if len(title) <= 60 else title[:59] + "…"
        typer.echo(f"{info.modified[:19].replace('T', ' ')}  {info.message_count:>5} msgs  {title}")
        typer.echo(f"    {info.path}")


def _fork_or_clone(path: Path, entry_id: str | None, position: str, output: Path | None) -> None:
    from tether.core.host.errors import TetherError

    session = _open(path)
    if position == "before":
        assert entry_id is not None
        new, text = session.fork(entry_id, position="before", output=output)
    else:
        if entry_id is not None and not session.has_entry(entry_id):
            raise TetherError(f"{path}: --at: no entry with id '{entry_id}'")
        new = session.clone(entry_id, output=output)
        text = None
    new.flush(force=True)
    from tether.builtin_plugins.commands.store_select import session_label

    typer.echo(session_label(new))
    if text:
        sys.stderr.write(f"tether: the forked message was: {text}\n")


@hookimpl
def register_commands(app: Any) -> None:
    @app.command("sessions")
    def sessions_command(
        all_: Annotated[
            bool, typer.Option("--all", help="Every project, not just this one.")
        ] = False,
        folder: Annotated[
            Path | None, typer.Option("--dir", help="List this folder (e.g. pi's sessions).")
        ] = None,
        as_json: JsonOpt = False,
        search: Annotated[
            str | None,
            typer.Option("--search", metavar="TEXT", help="Full-text search (database stores)."),
        ] = None,
    ) -> None:
        """List sessions, most recent first (this project's, or --all)."""
        _sessions(all_, folder, as_json, search)

    group = command_group(app, "session", SESSION_HELP)

    @group.command("show")
    def show_command(
        file: FileArg,
        as_json: JsonOpt = False,
        validate: Annotated[
            bool, typer.Option("--validate", help="Also check every entry against the format.")
        ] = False,
    ) -> None:
        """Header, counts by type, name, leaf and every problem with its line number."""
        from tether.builtin_plugins.commands.session.render import show_summary, show_text
        from tether.core.storage.filesafety import leftover_notes

        session = _open_validated(file)
        summary = show_summary(session)
        if session.file is not None:
            summary["notes"].extend(leftover_notes(session.file))
        if validate:
            from tether.builtin_plugins.commands.session.validate import validation_findings

            summary["schemaProblems"], summary["warnings"] = validation_findings(session)
        if as_json:
            _print_json(summary)
            return
        for line in show_text(summary):
            typer.echo(line)
        if validate:
            from tether.builtin_plugins.commands.session.validate import validation_lines

            for line in validation_lines(file, summary):
                typer.echo(f"  {line}")

    @group.command("tree")
    def tree_command(file: FileArg, as_json: JsonOpt = False) -> None:
        """The entry tree (children by time, labels, the leaf marked *)."""
        from tether.builtin_plugins.commands.session.render import render_tree

        session = _open_validated(file)
        if as_json:
            _print_json(session.tree_json())
        else:
            for line in render_tree(session):
                typer.echo(line)
        _warn_problems(session, file)

    @group.command("fork")
    def fork_command(
        file: FileArg,
        before: Annotated[str, typer.Option("--before", help="A user message's entry id.")],
        output: OutOpt = None,
    ) -> None:
        """New session with the history before a user message; prints its path."""
        _fork_or_clone(file, before, "before", output)

    @group.command("clone")
    def clone_command(
        file: FileArg,
        at: Annotated[
            str | None, typer.Option("--at", help="Entry id (default: the leaf).")
        ] = None,
        output: OutOpt = None,
    ) -> None:
        """New session with the branch up to an entry (labels kept); prints its path."""
        _fork_or_clone(file, at, "at", output)

    @group.command("export")
    def export_command(file: FileArg, output: OutOpt = None) -> None:
        """The current branch as a linear session file; prints its path. With a database
        store: the whole session, byte for byte as stored (v3 JSONL)."""
        from tether.builtin_plugins.commands import store_configured

        if store_configured():
            from tether.builtin_plugins.commands.store.listing import export_session
            from tether.builtin_plugins.commands.store_select import active_database

            typer.echo(str(export_session(active_database(), str(file), output)))
            return
        typer.echo(str(_open(file).export_jsonl(output)))

    @group.command("repair")
    def repair_command(
        file: FileArg,
        cwd: Annotated[
            str | None, typer.Option("--cwd", help="cwd for a new header (default: here).")
        ] = None,
        wait: WaitOpt = None,
    ) -> None:
        """Move damaged lines into a sidecar, keep every readable line (backup kept)."""
        from tether.builtin_plugins.commands import store_configured
        from tether.builtin_plugins.commands.lease_options import holding
        from tether.core.storage.repair import repair_file

        if store_configured():
            from tether.core.host.errors import UsageError

            raise UsageError(
                "session repair works on JSONL files: export the session "
                "(session export ID -o FILE), repair the file, import it again"
            )
        with holding(file, wait):
            summary = repair_file(file, cwd=cwd).summary()
        typer.echo(summary)
