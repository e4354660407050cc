"""The PostgreSQL store's schema, versioned like SQLite's: the baseline (v1), then each step up
to :data:`VERSION`, in one transaction under an advisory lock (two processes opening a new
database at once do it once). A newer database is refused with one line, never changed.
Tables are prefixed ``tether_``: the database may hold other things.
"""

from __future__ import annotations

from typing import Any

from tether.builtin_plugins.storage.index_runs import Tables, build_all_runs, create_runs_table
from tether.builtin_plugins.storage.sql.chunk_index import encode_chunk_index
from tether.builtin_plugins.storage.sql.database import facts_of_line
from tether.storage import StoreError

VERSION = 4
TABLES = Tables(entries="tether_entries", runs="tether_index_runs", mark="%s", size="octet_length")
SCHEMA_LOCK = 0x7E7E_0001  # the advisory lock that serialises schema changes

BASELINE = [
    "CREATE TABLE tether_schema (version INTEGER NOT NULL)",
    "INSERT INTO tether_schema (version) VALUES (1)",
    """CREATE TABLE tether_sessions (
        id TEXT PRIMARY KEY,
        cwd TEXT NOT NULL,
        created TEXT NOT NULL,
        modified TEXT NOT NULL,
        name TEXT,
        parent_session TEXT,
        header BYTEA NOT NULL,
        line_count INTEGER NOT NULL,
        message_count INTEGER NOT NULL,
        first_message TEXT NOT NULL,
        trailing_newline BOOLEAN NOT NULL
    )""",
    "CREATE INDEX tether_sessions_by_cwd ON tether_sessions (cwd, modified)",
    "CREATE INDEX tether_sessions_by_modified ON tether_sessions (modified)",
    """CREATE TABLE tether_entries (
        session_id TEXT NOT NULL,
        first_line INTEGER NOT NULL,
        line_count INTEGER NOT NULL,
        raw BYTEA NOT NULL,
        PRIMARY KEY (session_id, first_line)
    )""",
    # chunks are read whole and often: stored uncompressed, a 100k-entry session reads 2x faster
    "ALTER TABLE tether_entries ALTER COLUMN raw SET STORAGE EXTERNAL",
    """CREATE TABLE tether_leases (
        session_id TEXT PRIMARY KEY,
        pid INTEGER,
        host TEXT,
        command TEXT,
        since DOUBLE PRECISION
    )""",
]


def _v2_full_text(conn: Any) -> None:
    """v1 → v2: full-text search over user and assistant messages, filled from the entries."""
    conn.execute(
        """CREATE TABLE tether_message_text (
            session_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            text TEXT NOT NULL,
            tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', text)) STORED,
            PRIMARY KEY (session_id, seq)
        )"""
    )
    conn.execute("CREATE INDEX tether_message_text_tsv ON tether_message_text USING GIN (tsv)")
    rows = conn.execute("SELECT session_id, first_line, raw FROM tether_entries").fetchall()
    for session_id, first_line, raw in rows:
        for seq, line in enumerate(bytes(raw).split(b"\n"), first_line):
            facts = facts_of_line(line)
            if facts.kind == "message" and facts.text:
                conn.execute(
                    "INSERT INTO tether_message_text (session_id, seq, text) VALUES (%s, %s, %s)",
                    (session_id, seq, facts.text),
                )


def _v3_line_index(conn: Any) -> None:
    """v2 → v3: each chunk's line index (loading without scanning), computed for the chunks
    already stored; read whole and often, so stored uncompressed like the chunks."""
    conn.execute("ALTER TABLE tether_entries ADD COLUMN line_index BYTEA")
    conn.execute("ALTER TABLE tether_entries ALTER COLUMN line_index SET STORAGE EXTERNAL")
    keys = conn.execute("SELECT session_id, first_line FROM tether_entries").fetchall()
    for session_id, first_line in keys:
        (raw,) = conn.execute(
            "SELECT raw FROM tether_entries WHERE session_id = %s AND first_line = %s",
            (session_id, first_line),
        ).fetchone()
        conn.execute(
            "UPDATE tether_entries SET line_index = %s WHERE session_id = %s AND first_line = %s",
            (encode_chunk_index(bytes(raw).split(b"\n")), session_id, first_line),
        )


def _v4_index_runs(conn: Any) -> None:
    """v3 → v4: runs of chunk indexes (:mod:`tether.builtin_plugins.storage.sql.chunk_runs`: a
    session of
    many small chunks loads from a few rows), built for the chunks already stored."""
    conn.execute(create_runs_table(TABLES, "BYTEA"))
    conn.execute("ALTER TABLE tether_index_runs ALTER COLUMN run SET STORAGE EXTERNAL")
    build_all_runs(lambda sql, args: conn.execute(sql, args).fetchall(), conn.execute, TABLES)


STEPS = {2: _v2_full_text, 3: _v3_line_index, 4: _v4_index_runs}


def schema_version(conn: Any) -> int | None:
    row = conn.execute("SELECT to_regclass('tether_schema') IS NOT NULL").fetchone()
    if not row[0]:
        return None
    row = conn.execute("SELECT version FROM tether_schema").fetchone()
    return None if row is None else int(row[0])


def ensure_schema(conn: Any, where: str, *, target: int = VERSION) -> int:
    """Create or migrate the schema up to ``target``; returns the version found (0: new)."""
    found = schema_version(conn)
    if found == target:
        return found
    if found is not None and found > target:
        raise StoreError(
            f"{where}: the database has schema version {found}; this tether knows versions "
            f"up to {target} — upgrade tether to use it"
        )
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
        found = schema_version(conn)
        current = found
        if current is None:
            for statement in BASELINE:
                conn.execute(statement)
            current = 1
        if current > target:
            raise StoreError(f"{where}: the database has schema version {current}")
        while current < target:
            current += 1
            STEPS[current](conn)
            conn.execute("UPDATE tether_schema SET version = %s", (current,))
    return found if found is not None else 0


__all__ = ["BASELINE", "STEPS", "TABLES", "VERSION", "ensure_schema", "schema_version"]
