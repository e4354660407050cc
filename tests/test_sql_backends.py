"""The SQLite and PostgreSQL stores are one database class and one versioned schema over two
dialects (tether/builtin_plugins/storage/sql/); each backend keeps only what is its own."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

SHARED = {
    "append_lines",
    "count",
    "import_session",
    "list_sessions",
    "read_chunk_indexes",
    "read_index",
    "resolve",
    "session_store",
    "tail",
}


def test_both_backends_are_the_shared_database_and_define_none_of_its_operations() -> None:
    from tether.builtin_plugins.storage.postgresql.database import PostgresDatabase
    from tether.builtin_plugins.storage.sql.backend import SqlDatabase
    from tether.builtin_plugins.storage.sqlite.database import SqliteDatabase

    for backend in (SqliteDatabase, PostgresDatabase):
        assert issubclass(backend, SqlDatabase)
        assert SHARED & set(vars(backend)) == set(), backend.__name__


def _columns_sqlite(path: Path, table: str) -> list[tuple[str, str]]:
    with sqlite3.connect(path) as db:
        return [(row[1], row[2]) for row in db.execute(f"PRAGMA table_info({table})")]


def test_a_new_database_has_the_same_tables_and_columns_on_both_backends(
    tmp_path: Path, pg_cluster: Any
) -> None:
    import psycopg

    from tether.builtin_plugins.storage.postgresql.database import PostgresDatabase
    from tether.builtin_plugins.storage.sqlite.database import SqliteDatabase

    sqlite_db = SqliteDatabase(f"sqlite:///{tmp_path / 's.db'}")
    sqlite_db.append_lines("s1", ({"id": "s1"}, b'{"type":"session","id":"s1"}'), [b"{}"], None)
    uri = pg_cluster.uri()
    PostgresDatabase(uri).close()
    types = {"BLOB": "bytea", "INTEGER": "integer", "TEXT": "text"}
    for table in ("sessions", "entries", "index_runs"):
        lite = _columns_sqlite(tmp_path / "s.db", table)
        with psycopg.connect(uri) as conn:
            pg = conn.execute(
                "SELECT column_name, data_type FROM information_schema.columns "
                "WHERE table_name = %s ORDER BY ordinal_position",
                (f"tether_{table}",),
            ).fetchall()
        assert [name for name, _ in lite] == [name for name, _ in pg], table
        for (name, lite_type), (_, pg_type) in zip(lite, pg, strict=True):
            if name != "trailing_newline":  # a flag: INTEGER in SQLite, boolean in PostgreSQL
                assert types[lite_type] == pg_type, (table, name)


def test_sqlite_migration_refuses_a_schema_a_newer_tether_wrote_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tether.builtin_plugins.storage.sqlite import schema
    from tether.storage import StoreError

    path = tmp_path / "s.db"
    db = sqlite3.connect(path, isolation_level=None)
    assert schema.ensure_schema(db, "s", target=3) == 0
    newer = sqlite3.connect(path, isolation_level=None)
    looked = schema.schema_version

    def racing(conn: sqlite3.Connection, where: str) -> int | None:
        found = looked(conn, where)
        if found == 3:  # after the first look, before the migration's transaction
            newer.execute("UPDATE tether_schema SET version = 9")
        return found

    monkeypatch.setattr(schema, "schema_version", racing)
    with pytest.raises(StoreError, match="s: the database has schema version 9"):
        schema.ensure_schema(db, "s", target=4)
    tables = {row[0] for row in newer.execute("SELECT name FROM sqlite_master")}
    assert "index_runs" not in tables  # nothing of the v4 step was written
    assert newer.execute("SELECT version FROM tether_schema").fetchone() == (9,)


def test_postgresql_leases_of_one_process_share_one_lock_until_the_last_is_released(
    pg_cluster: Any,
) -> None:
    import psycopg

    from tether.builtin_plugins.storage.postgresql.database import PostgresDatabase, lease_key

    uri = pg_cluster.uri()
    database = PostgresDatabase(uri)
    first = database.lease("s1")
    second = database.lease("s1")  # joins the first one's lock: no waiting for itself

    def taken_elsewhere() -> tuple[bool, Any]:
        with psycopg.connect(uri, autocommit=True) as other:
            (got,) = other.execute("SELECT pg_try_advisory_lock(%s)", (lease_key("s1"),)).fetchone()
            row = other.execute("SELECT pid FROM tether_leases WHERE session_id = 's1'").fetchone()
        return got, row

    first.release()
    assert taken_elsewhere() == (False, (os.getpid(),))
    second.release()
    second.release()  # a second release of one lease gives nothing back again
    assert taken_elsewhere() == (True, None)
    database.close()
