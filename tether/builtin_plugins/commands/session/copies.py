"""``tether session fork|clone|export|repair``: new files made from a session, and repairs.

Each prints the path it wrote (``--json``: an object naming the file, the new session's id, its
parent and its entry count). ``export`` without ``-o`` writes next to the source, in its
sessions folder, and every export gets a fresh session id and ``parentSession`` (pi's export
keeps the source's id: two files with one id make ``--session ID`` ambiguous).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer

from tether.builtin_plugins.commands import open_session_file


def _print_json(value: Any) -> None:
    from tether.cli import json_text

    sys.stdout.write(json_text(value, indent=1) + "\n")


def _described(session: Any) -> dict[str, Any]:
    return {
        "file": str(session.file) if session.file is not None else None,
        "sessionId": session.session_id,
        "parentSession": session.header.get("parentSession"),
        "entryCount": len(session),
        "leafId": session.leaf_id,
    }


def fork_or_clone(
    path: Path, entry_id: str | None, position: str, output: Path | None, as_json: bool
) -> None:
    """``fork --before ID`` (a user message) or ``clone [--at ID]``."""
    from tether.cli import UsageError

    session = open_session_file(path)
    flag = "--before" if position == "before" else "--at"
    if entry_id is not None and not session.has_entry(entry_id):
        raise UsageError(f"{path}: {flag}: no entry with id '{entry_id}'")
    if position == "before":
        assert entry_id is not None
        new, text = session.fork(entry_id, position="before", output=output)
    else:
        new, text = session.clone(entry_id, output=output), None
    new.flush(force=True)
    if as_json:
        _print_json({**_described(new), **({"forkedText": text} if position == "before" else {})})
        return
    from tether.builtin_plugins.commands.store_select import session_label

    typer.echo(session_label(new))
    if text:
        sys.stderr.write(f"tether: the forked message was: {text}\n")


def export(path: Path, output: Path | None, as_json: bool) -> None:
    """The active branch as a linear file with a fresh id (see the module doc)."""
    from tether import Session
    from tether.builtin_plugins.commands.session.file_copies import export_jsonl
    from tether.builtin_plugins.commands.store_select import plugin_manager
    from tether.sessions import session_file_name
    from tether.storage import make_header

    source = open_session_file(path)
    header = make_header(source.cwd, parent_session=str(Path(path).resolve()))
    if output is None:
        output = Path(path).resolve().parent / session_file_name(header["timestamp"], header["id"])
    written = export_jsonl(source, output, header=header)
    if as_json:
        opened = Session.open(written, readonly=True, plugins=plugin_manager())
        _print_json(_described(opened))
        return
    typer.echo(str(written))


def repair(path: Path, cwd: str | None, wait: str | None, as_json: bool) -> None:
    """Damaged lines into a sidecar file, every readable line kept (a backup too)."""
    from tether.builtin_plugins.commands import file_store
    from tether.builtin_plugins.commands.lease_options import holding
    from tether.builtin_plugins.storage.jsonl.repair import repair_file

    with holding(path, wait):
        report = repair_file(file_store(path), cwd=cwd)
    if not as_json:
        typer.echo(report.summary())
        return
    _print_json(
        {
            "file": str(report.path),
            "changed": report.changed,
            "movedLines": report.moved_lines,
            "sidecar": str(report.sidecar) if report.sidecar else None,
            "backup": str(report.backup) if report.backup else None,
            "newHeader": report.new_header,
            "addedNewline": report.added_newline,
            "notes": report.notes(),
        }
    )


__all__ = ["export", "fork_or_clone", "repair"]
