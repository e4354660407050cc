"""Built-in plugin ``session_commands``: list sessions and inspect, copy and repair session files.

``tether sessions [--all] [--dir D] [--json]`` lists sessions (most recent first, one notion of
"most recent" shared with ``--continue``). ``tether session show|tree|fork|clone|export|repair
FILE`` work on one file; ``show`` and ``tree`` never modify it (legacy files are migrated in
memory only); ``repair`` holds the session's lease (``--wait [SECONDS]``, see ``_lease_cli``).
``tree --json`` uses the field names of pi's oracle (``roots, children, labels,
labelTimestamps, sessionName, branch``…), so it compares directly with pi's goldens.
"""

from __future__ import annotations

import inspect
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from tether.builtin_plugins.commands import (
    SESSION_HELP,
    FileArg,
    PlainJsonOpt,
    open_session_file,
    switch,
)
from tether.cli import WaitOpt, command_group
from tether.hookspecs import hookimpl

ColorOpt = Annotated[
    str,
    typer.Option(
        "--color",
        metavar="auto|always|never",
        help="Colour: auto (a terminal, unless NO_COLOR), always, never.",
    ),
]
OutOpt = Annotated[
    Path | None, typer.Option("--output", "-o", help="Where to write (must not exist).")
]


def _open_validated(path: Path) -> Any:
    """Read-only, every line parsed: a broken line is dropped exactly as pi drops it."""
    return open_session_file(path, validate_all=True)


def _print_json(value: Any) -> None:
    from tether.cli import json_text

    sys.stdout.write(json_text(value, indent=1) + "\n")  # 1e999 → null, as pi writes it


def _warn_problems(session: Any, path: Path) -> None:
    for problem in session.problems:
        sys.stderr.write(f"tether: warning: {path}:{problem.line}: {problem.message}\n")


def _sessions(all_: bool, folder: Path | None, as_json: bool, search: str | None) -> None:
    from tether.builtin_plugins.commands import store_configured
    from tether.builtin_plugins.commands.agent.setup import project_folder
    from tether.builtin_plugins.storage.jsonl.listing import list_sessions, project_folders
    from tether.sessions import sessions_root

    if folder is not None and not folder.is_dir():
        sys.stderr.write(f"tether: warning: --dir {folder}: no such folder\n")
    if folder is None and store_configured():
        from tether.builtin_plugins.commands.store.listing import list_stored
        from tether.builtin_plugins.commands.store_select import active_database

        list_stored(active_database(), None if all_ else os.getcwd(), search, as_json)
        return
    if search is not None:
        from tether.cli import UsageError

        raise UsageError("--search needs a database store (--store sqlite:///… or postgresql://…)")
    if folder is not None:
        folders = project_folders(folder) if all_ else [folder]
    elif all_:
        folders = project_folders(sessions_root())
    else:
        from tether import load_settings

        cwd = os.getcwd()
        folders = [project_folder(cwd, load_settings(cwd))]
    infos = list_sessions(folders)
    if as_json:
        _print_json([info.to_json() for info in infos])
        return
    if not infos:
        where = ", ".join(str(f) for f in folders) or "(no folders)"
        others = (
            0
            if all_ or folder is not None
            else len(list_sessions(project_folders(sessions_root())))
        )
        tail = f"; `--all` lists {others}" if others else ""
        typer.echo(f"No sessions in {where}{tail}.")
        return
    for info in infos:
        title = info.name or info.first_message
        title = " ".join(title.split())
        title = title if len(title) <= 60 else title[:59] + "…"
        typer.echo(f"{info.modified[:19].replace('T', ' ')}  {info.message_count:>5} msgs  {title}")
        typer.echo(f"    {info.path}")


# ``fork`` and ``clone``: one command each, told apart by the option naming the entry.
_COPY_COMMANDS = (
    (
        "fork",
        inspect.Parameter(
            "before",
            inspect.Parameter.KEYWORD_ONLY,
            annotation=Annotated[str, typer.Option("--before", help="A user message's entry id.")],
        ),
        "New session with the history before a user message; prints its path.",
    ),
    (
        "clone",
        inspect.Parameter(
            "at",
            inspect.Parameter.KEYWORD_ONLY,
            default=None,
            annotation=Annotated[
                str | None, typer.Option("--at", help="Entry id (default: the leaf).")
            ],
        ),
        "New session with the branch up to an entry (labels kept); prints its path.",
    ),
)


def _copy_command(point: inspect.Parameter, doc: str) -> Callable[..., None]:
    """``session fork``/``clone``: FILE, the option naming the entry (``point``), -o, --json."""

    def command(**options: Any) -> None:
        from tether.builtin_plugins.commands.session.copies import fork_or_clone

        entry_id, output = options[point.name], options["output"]
        fork_or_clone(options["file"], entry_id, point.name, output, options["as_json"])

    keyword = inspect.Parameter.KEYWORD_ONLY
    command.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter("file", keyword, annotation=FileArg),
            point,
            inspect.Parameter("output", keyword, default=None, annotation=OutOpt),
            inspect.Parameter("as_json", keyword, default=False, annotation=PlainJsonOpt),
        ]
    )
    command.__doc__ = doc
    return command


@hookimpl
def register_commands(app: Any) -> None:
    @app.command("sessions")
    def sessions_command(
        all_: switch("--all", help="Every project, not just this one.") = False,
        folder: Annotated[
            Path | None, typer.Option("--dir", help="List this folder (e.g. pi's sessions).")
        ] = None,
        as_json: PlainJsonOpt = False,
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
        as_json: PlainJsonOpt = False,
        validate: switch("--validate", help="Also check every entry against the format.") = False,
    ) -> None:
        """Header, counts by type, name, leaf and every problem with its line number
        (--validate: exit 1 when there is one)."""
        from tether.builtin_plugins.commands.session.render import (
            problem_count,
            show_summary,
            show_text,
        )
        from tether.builtin_plugins.storage.jsonl.files.filesafety import leftover_notes

        session = _open_validated(file)
        summary = show_summary(session)
        if session.file is not None:
            summary["notes"].extend(leftover_notes(session.file))
        if validate:
            from tether.builtin_plugins.commands.session.validate import validation_findings

            summary["schemaProblems"], summary["warnings"] = validation_findings(session)
        if as_json:
            _print_json(summary)
        else:
            for line in show_text(summary):
                typer.echo(line)
        if validate and not as_json:
            from tether.builtin_plugins.commands.session.validate import validation_lines

            for line in validation_lines(file, summary):
                typer.echo(f"  {line}")
        if validate and problem_count(summary):
            raise typer.Exit(1)

    @group.command("tree")
    def tree_command(
        file: FileArg,
        as_json: PlainJsonOpt = False,
        full: switch("--full", help="Show every entry (no folded runs).") = False,
        colour: ColorOpt = "auto",
    ) -> None:
        """The entry tree: branches drawn, long runs folded, > active path, * current leaf."""
        session = _open_validated(file)
        if as_json:
            from tether.builtin_plugins.commands.session.tree_json import tree_json

            _print_json(tree_json(session))
        else:
            from tether.builtin_plugins.commands.session.tree_view import (
                render_tree_view,
                use_colour,
            )

            shown = use_colour(colour, sys.stdout)
            sys.stdout.write(
                "".join(f"{line}\n" for line in render_tree_view(session, full=full, colour=shown))
            )
        _warn_problems(session, file)

    for name, point, doc in _COPY_COMMANDS:
        group.command(name)(_copy_command(point, doc))

    @group.command("export")
    def export_command(
        file: FileArg,
        output: OutOpt = None,
        html: switch("--html", help="The whole tree as one self-contained page.") = False,
        as_json: PlainJsonOpt = False,
    ) -> None:
        """The current branch as a linear session file with a new id (default: next to FILE),
        or with --html the whole tree as a web page (default: next to FILE, its name with .html,
        or here for a database session); prints its path, or with -o - writes the file or page
        to stdout. With a database store: the whole session, byte for byte as stored (v3
        JSONL)."""
        from tether.builtin_plugins.commands import store_configured

        if html:
            from tether.builtin_plugins.commands.session.html_export import html_target, write_html

            session = _open_validated(file)
            if output == Path("-"):
                from tether.builtin_plugins.commands.session.html_export import render_html

                sys.stdout.flush()
                sys.stdout.buffer.write(render_html(session).encode("utf-8", "replace"))
                sys.stdout.buffer.flush()
                return
            written = write_html(session, output or html_target(file, store_configured()))
            _say_written(written, as_json, {"file": str(written)})
            return
        if output == Path("-"):  # the file, written aside, then streamed
            _export_to_stdout(file)
            return
        if store_configured():
            written = _export_from_store(file, output)
            _say_written(written, as_json, {"file": str(written), "sessionId": str(file)})
            return
        from tether.builtin_plugins.commands.session.copies import export

        export(file, output, as_json)

    def _export_from_store(file: Path, output: Path | None) -> Path:
        """``export`` with a database store: the session (FILE is its id) as stored."""
        from tether.builtin_plugins.commands.store.listing import export_session
        from tether.builtin_plugins.commands.store_select import active_database

        return export_session(active_database(), str(file), output)

    def _say_written(written: Path, as_json: bool, value: dict[str, str]) -> None:
        if as_json:
            _print_json(value)
        else:
            typer.echo(str(written))

    def _export_to_stdout(file: Path) -> None:
        """``export FILE -o -``: the export's bytes on stdout, nothing left on disk."""
        import contextlib
        import io
        import shutil
        import tempfile

        from tether.builtin_plugins.commands import store_configured

        with tempfile.TemporaryDirectory(prefix="tether-export-") as folder:
            target = Path(folder) / "export.jsonl"
            if store_configured():
                _export_from_store(file, target)
            else:
                from tether.builtin_plugins.commands.session.copies import export

                with contextlib.redirect_stdout(io.StringIO()):  # its path is not the output
                    export(file, target, False)
            sys.stdout.flush()
            with target.open("rb") as written:
                shutil.copyfileobj(written, sys.stdout.buffer)
            sys.stdout.buffer.flush()

    @group.command("repair")
    def repair_command(
        file: FileArg,
        cwd: Annotated[
            str | None,
            typer.Option(
                "--cwd", help="Working folder to record in a new header (default: this one)."
            ),
        ] = None,
        wait: WaitOpt = None,
        as_json: PlainJsonOpt = False,
    ) -> None:
        """Move damaged lines into a sidecar, keep every readable line (backup kept)."""
        from tether.builtin_plugins.commands import store_configured

        if store_configured():
            from tether.cli import UsageError

            raise UsageError(
                "session repair works on JSONL files: export the session "
                "(session export ID -o FILE), repair the file, import it again"
            )
        from tether.builtin_plugins.commands.session.copies import repair

        repair(file, cwd, wait, as_json)
