"""What the commands do with a database store: list, import, export (no hooks here)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import typer


def list_stored(database: Any, cwd: str | None, search: str | None, as_json: bool) -> None:
    """``tether sessions`` for a database: this project's sessions (``cwd``), or all of them
    (``None``); a missing database is an error (a listing creates none)."""
    if not getattr(database, "exists", True):
        raise database.missing()
    rows = database.list_sessions(cwd=cwd, search=search)
    others = 0
    if not rows and cwd is not None and not as_json:
        others = len(database.list_sessions(search=search))
    print_rows(database, rows, as_json, search=search, others=others)


def _nothing(database: Any, search: str | None, others: int) -> str:
    """``No sessions …`` saying which, and how many ``--all`` would list."""
    from tether.storage import describe_uri

    matching = f" match {search!r}" if search is not None else ""
    if others:
        return f"No sessions of this project{matching}; `--all` lists {others}."
    return f"No sessions in {describe_uri(database.uri)}{matching}."


def print_rows(
    database: Any, rows: list[Any], as_json: bool, *, search: str | None = None, others: int = 0
) -> None:
    """``tether sessions`` for a database: one entry per session, most recent first."""
    if as_json:
        sys.stdout.write(json.dumps([row.to_json() for row in rows], ensure_ascii=False) + "\n")
        return
    if not rows:
        typer.echo(_nothing(database, search, others))
        return
    for row in rows:
        title = " ".join((row.name or row.first_message or "(no messages)").split())
        title = title if len(title) <= 60 else title[:59] + "…"
        typer.echo(f"{row.modified[:19].replace('T', ' ')}  {row.message_count:>5} msgs  {title}")
        typer.echo(f"    {row.id}")


def _v3_bytes(path: Path) -> bytes:
    """The file's bytes, migrated to v3 in memory if it is older (the file is not changed);
    a line the migration drops (damaged, torn) is a warning naming the file and line."""
    from tether import SessionFileError
    from tether.builtin_plugins.commands import file_store

    store = file_store(path)
    read_bytes = getattr(store, "read_bytes", None)
    if read_bytes is None:
        raise SessionFileError(f"{path}: not a session file (its store holds no file bytes)")
    data = read_bytes()
    if data is None:
        raise SessionFileError(f"{path}: no such session file")
    loaded = store.load(readonly=False)
    if loaded.header is None:
        raise SessionFileError(f"{path}: empty file (no session header)")
    if loaded.pending_rewrite is not None:
        migration = f"the v{loaded.version_on_disk:g}→v3 migration"
        for problem in loaded.problems:  # the migration keeps entries only: say what it drops
            if problem.kind == "unterminated":  # a whole entry without its newline: kept
                continue
            why = "a torn last line (no newline)" if problem.kind == "torn" else problem.message
            why = why.removesuffix(", skipped")
            sys.stderr.write(
                f"tether: warning: {path}:{problem.line}: {why}; dropped by {migration}\n"
            )
        return loaded.pending_rewrite[1]
    return data


def import_files(files: list[Path], as_json: bool) -> None:
    """``tether session import``: every file is read and checked before any is stored."""
    from tether.builtin_plugins.commands.store_select import active_database
    from tether.cli import UsageError

    database = active_database()
    if database is None:
        raise UsageError(
            "session import needs a database store: --store sqlite:///… or postgresql://…"
        )
    from tether.builtin_plugins.storage.sql.database import split_session_bytes
    from tether.storage import StoreError, describe_uri

    prepared = [(path, _v3_bytes(path)) for path in files]
    seen: dict[str, Path] = {}
    for path, data in prepared:  # refuse the whole batch before storing any of it
        session_id = str(split_session_bytes(data, str(path)).record["id"])
        if session_id in seen or database.count(session_id) is not None:
            where = seen.get(session_id, describe_uri(database.uri))
            raise StoreError(
                f"{path}: session {session_id} is already in {where}; nothing imported"
            )
        seen[session_id] = path
    done = []
    for path, data in prepared:
        session_id = database.import_session(data, str(path))
        done.append({"file": str(path), "sessionId": session_id})
        if not as_json:
            typer.echo(f"{path} → {session_id}")
    if as_json:
        sys.stdout.write(json.dumps(done, ensure_ascii=False) + "\n")


def export_session(database: Any, ref: str, output: Path | None) -> Path:
    """``tether session export ID --store URI -o FILE``: the session's bytes, exactly as
    stored (never overwrites a file)."""
    from tether import SessionFileError
    from tether.builtin_plugins.storage.jsonl.files.fileio import write_file_durably
    from tether.builtin_plugins.storage.jsonl.files.filesafety import make_private_dirs
    from tether.builtin_plugins.storage.sql.database import join_session_bytes
    from tether.storage import uri_without_password

    session_id = database.resolve(ref)
    stored = database.read(session_id)
    if stored is None:
        where = uri_without_password(database.uri)
        raise SessionFileError(f"{where}#{session_id}: no such session")
    path = Path(os.path.abspath(output or f"{session_id}.jsonl"))
    try:
        make_private_dirs(path.parent)
        write_file_durably(path, join_session_bytes(stored))
    except FileExistsError:
        raise SessionFileError(f"{path}: already exists; refusing to overwrite") from None
    except OSError as exc:
        raise SessionFileError(f"{path}: cannot write: {exc.strerror}") from None
    return path
