"""A command opens each database once and closes it when it ends; nothing is cached per process."""

from __future__ import annotations

from pathlib import Path

import typer
from typer._click import Context

from tether.builtin_plugins.commands.store_select import open_database

HEADER = (
    b'{"type":"session","version":3,"id":"0b6c7f7e-0000-4000-8000-000000000001",'
    b'"timestamp":"2026-01-01T00:00:00.000Z","cwd":"/tmp"}\n'
)


def _context() -> Context:
    app = typer.Typer(add_completion=False)
    app.command()(lambda: None)
    return Context(typer.main.get_command(app))


def test_one_database_per_command_closed_when_it_ends(tmp_path: Path) -> None:
    uri = f"sqlite:///{tmp_path / 'sessions.db'}"
    with _context():
        database = open_database(uri)
        assert open_database(uri) is database  # reused within the command
        database.import_session(HEADER, "probe.jsonl")  # a working connection
        assert database._connection is not None
    assert database._connection is None  # closed as the command ended
    with _context():
        assert open_database(uri) is not database  # the next command opens its own


def test_outside_a_command_nothing_is_kept(tmp_path: Path) -> None:
    uri = f"sqlite:///{tmp_path / 'sessions.db'}"
    assert open_database(uri) is not open_database(uri)
