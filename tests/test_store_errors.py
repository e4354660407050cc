"""Database stores fail in one clear line (bad URI, unreachable server, wrong credentials, a
database of another schema version or of something else), and their schemas migrate, versioned.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.cli_in_process import run_in_process
from tests.pg_cluster import free_port
from tests.store_backends import make_backend
from tests.store_helpers import CORPUS, run_tether

SAMPLE = next(p for p in CORPUS if p.stem == "g09-bash-exec")


def one_error_line(*args: str, cwd: Path, store: str | None = None, process: bool = True) -> str:
    """Run ``tether ARGS`` (with ``--store STORE``); it must fail with exactly one line.
    ``process=False``: in this process (tests/cli_in_process.py)."""
    extra = ["--store", store] if store is not None else []
    env = {"TETHER_STORE": None}
    if process:
        done = run_tether(*args, *extra, cwd=cwd, env=env)
    else:
        done = run_in_process(*args, *extra, cwd=cwd, env=env)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tether: error: "), done.stderr
    assert "Traceback" not in done.stderr and "plugin '" not in lines[0]
    return lines[0]


def test_bad_store_uris_are_one_line_each(tmp_path: Path) -> None:
    # the first listing and the run are real processes; the other listings run in this one
    assert "--store: expected jsonl, sqlite:///PATH" in one_error_line(
        "sessions", cwd=tmp_path, store="sessions.db"
    )
    assert "no store plugin handles this URI" in one_error_line(
        "sessions", cwd=tmp_path, store="mysql://me@host/db", process=False
    )
    assert "no database file in the URI" in one_error_line(
        "sessions", cwd=tmp_path, store="sqlite://", process=False
    )
    assert "is a directory" in one_error_line(
        "sessions", cwd=tmp_path, store=f"sqlite:///{tmp_path}", process=False
    )
    missing = tmp_path / "no" / "such" / "folder"
    assert f"no such database {missing}" in one_error_line(
        "sessions", cwd=tmp_path, store=f"sqlite:///{missing}", process=False
    )
    assert f"no folder {missing.parent}" in one_error_line(
        "run", "hi", "--provider", "faux", cwd=tmp_path, store=f"sqlite:///{missing}"
    )
    assert not (tmp_path / "no").exists()  # nothing made by a typo
    assert "not a valid PostgreSQL URI" in one_error_line(
        "sessions",
        cwd=tmp_path,
        store="postgresql://me@127.0.0.1:1/db?nonsense_option=1",
        process=False,
    )


def test_a_file_that_is_not_a_session_database_is_refused_untouched(tmp_path: Path) -> None:
    text = tmp_path / "notes.db"
    text.write_bytes(b"just some text, not SQLite\n" * 200)
    line = one_error_line("sessions", cwd=tmp_path, store=f"sqlite:///{text}")
    assert "not a usable SQLite database" in line
    assert text.read_bytes() == b"just some text, not SQLite\n" * 200
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE invoices (id INTEGER)")
    line = one_error_line("sessions", cwd=tmp_path, store=f"sqlite:///{other}")
    assert "not a tether session database" in line


def test_an_unreachable_server_and_wrong_credentials_are_one_line_each(
    tmp_path: Path, pg_cluster: Any
) -> None:
    port = free_port()
    line = one_error_line(
        "sessions", cwd=tmp_path, store=f"postgresql://tether:pw@127.0.0.1:{port}/x"
    )
    assert "cannot connect to the database" in line and "pw" not in line.split("failed")[0]
    wrong = pg_cluster.admin_uri().replace(pg_cluster.password, "not-the-password")
    line = one_error_line("sessions", cwd=tmp_path, store=wrong)
    assert "the server refused the login" in line and "not-the-password" not in line
    missing = pg_cluster.admin_uri("no_such_database")
    assert "no_such_database" in one_error_line("sessions", cwd=tmp_path, store=missing)


@pytest.mark.parametrize("backend_name", ["sqlite", "postgresql"])
def test_a_database_of_a_newer_schema_is_refused_and_left_alone(
    backend_name: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    backend = make_backend(request, backend_name, tmp_path / "store")
    ref = backend.add(SAMPLE)
    assert backend.uri is not None
    if backend_name == "sqlite":
        with sqlite3.connect(backend.uri.split("://", 1)[1]) as db:
            db.execute("UPDATE tether_schema SET version = 99")
    else:
        import psycopg

        with psycopg.connect(backend.uri, autocommit=True) as conn:
            conn.execute("UPDATE tether_schema SET version = 99")
    line = one_error_line("session", "show", ref, cwd=tmp_path, store=backend.uri)
    assert "schema version 99; this tether knows versions up to 4 — upgrade tether" in line


@pytest.mark.parametrize("backend_name", ["sqlite", "postgresql"])
def test_unknown_and_ambiguous_session_ids_are_one_line(
    backend_name: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    backend = make_backend(request, backend_name, tmp_path / "store")
    backend.add(SAMPLE)
    line = one_error_line("session", "show", "zzzz", cwd=tmp_path, store=backend.uri)
    assert "no session with an id starting with 'zzzz'" in line
    # an empty prefix is a usage error naming the argument (tests/test_empty_session_ref.py)
    done = run_tether("session", "tree", "", "--store", backend.uri, cwd=tmp_path)
    assert done.returncode == 2 and "'FILE': empty" in done.stderr.splitlines()[0]


def test_sqlite_v1_database_is_migrated_to_v2_and_searchable(tmp_path: Path) -> None:
    from tether.builtin_plugins.storage.sql.database import split_session_bytes
    from tether.builtin_plugins.storage.sqlite.database import SqliteDatabase
    from tether.builtin_plugins.storage.sqlite.schema import VERSION, ensure_schema

    path = tmp_path / "old.db"
    db = sqlite3.connect(path, isolation_level=None)
    assert ensure_schema(db, "old", target=1) == 0  # what the first release created
    db.close()
    parsed = split_session_bytes(SAMPLE.read_bytes(), str(SAMPLE))
    session_id = parsed.record["id"]
    with sqlite3.connect(path) as old:  # a v1 database, filled as v1 did
        old.execute(
            "INSERT INTO sessions VALUES (?, '/p', 't', 't', NULL, NULL, ?, ?, 1, 'hi', 1)",
            (session_id, parsed.header, len(parsed.lines)),
        )
        old.execute(
            "INSERT INTO entries VALUES (?, 1, ?, ?)",
            (session_id, len(parsed.lines), b"\n".join(parsed.lines)),
        )
    with sqlite3.connect(path) as check:
        assert check.execute("SELECT version FROM tether_schema").fetchone() == (1,)

    database = SqliteDatabase(f"sqlite:///{path}")  # opening migrates
    with sqlite3.connect(path) as check:
        assert check.execute("SELECT version FROM tether_schema").fetchone() == (VERSION,)
    assert database.read_index(session_id).chunks[0][3] is not None  # v3: indexed
    word = SAMPLE.read_text().split('"text":"')[1].split()[0].strip('",')
    assert [row.id for row in database.list_sessions(search=word)] == [session_id]


def test_postgresql_v1_database_is_migrated_to_v2_and_searchable(pg_cluster: Any) -> None:
    import psycopg

    from tether.builtin_plugins.storage.postgresql.database import PostgresDatabase
    from tether.builtin_plugins.storage.postgresql.schema import VERSION, ensure_schema

    uri = pg_cluster.uri()
    with psycopg.connect(uri, autocommit=True) as conn:
        assert ensure_schema(conn, "old", target=1) == 0
        conn.execute(
            "INSERT INTO tether_sessions VALUES ('s1', '/p', 't', 't', NULL, NULL, "
            "'\\x7b7d'::bytea, 1, 1, 'hi', true)"
        )
        conn.execute(
            "INSERT INTO tether_entries VALUES ('s1', 1, 1, convert_to(%s, 'UTF8'))",
            ('{"type":"message","message":{"role":"user","content":"find the zebra"}}',),
        )
    database = PostgresDatabase(uri)
    with psycopg.connect(uri) as conn:
        assert conn.execute("SELECT version FROM tether_schema").fetchone() == (VERSION,)
    assert [row.id for row in database.list_sessions(search="zebra")] == ["s1"]
