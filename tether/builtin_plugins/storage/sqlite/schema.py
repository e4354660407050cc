"""The SQLite store's schema, versioned: the baseline (v1) and each step up to :data:`VERSION`.

A new database gets v1, then every step, in one transaction; an older one gets the missing
steps; a newer one (written by a later tether) is refused with one line, never changed.
"""

from __future__ import annotations

import sqlite3

from tether.builtin_plugins.storage.index_runs import Tables, build_all_runs, create_runs_table
from tether.builtin_plugins.storage.sql.chunk_index import encode_chunk_index
from tether.builtin_plugins.storage.sql.database import facts_of_line
from tether.storage import StoreError

VERSION = 4
TABLES = Tables(entries="entries", runs="index_runs", mark="?", size="length")

BASELINE = """
CREATE TABLE tether_schema (version INTEGER NOT NULL);
INSERT INTO tether_schema (version) VALUES (1);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    cwd TEXT NOT NULL,
    created TEXT NOT NULL,
    modified TEXT NOT NULL,
    name TEXT,
    parent_session TEXT,
    header BLOB NOT NULL,
    line_count INTEGER NOT NULL,
    message_count INTEGER NOT NULL,
    first_message TEXT NOT NULL,
    trailing_newline INTEGER NOT NULL
);
CREATE INDEX sessions_by_cwd ON sessions (cwd, modified);
CREATE INDEX sessions_by_modified ON sessions (modified);
CREATE TABLE entries (
    session_id TEXT NOT NULL,
    first_line INTEGER NOT NULL,
    line_count INTEGER NOT NULL,
    raw BLOB NOT NULL,
    PRIMARY KEY (session_id, first_line)
);
"""


def _v2_full_text(db: sqlite3.Connection) -> None:
    """v1 → v2: full-text search over user and assistant messages (FTS5), filled from the
    entries already stored."""
    db.execute(
        "CREATE VIRTUAL TABLE message_text USING fts5(session_id UNINDEXED, seq UNINDEXED, text)"
    )
    rows = db.execute("SELECT session_id, first_line, raw FROM entries")
    for session_id, first_line, raw in rows.fetchall():
        for seq, line in enumerate(bytes(raw).split(b"\n"), first_line):
            facts = facts_of_line(line)
            if facts.kind == "message" and facts.text:
                db.execute(
                    "INSERT INTO message_text (session_id, seq, text) VALUES (?, ?, ?)",
                    (session_id, seq, facts.text),
                )


def _v3_line_index(db: sqlite3.Connection) -> None:
    """v2 → v3: each chunk's line index (loading without scanning), computed for the chunks
    already stored."""
    db.execute("ALTER TABLE entries ADD COLUMN line_index BLOB")
    keys = db.execute("SELECT session_id, first_line FROM entries").fetchall()
    for session_id, first_line in keys:
        (raw,) = db.execute(
            "SELECT raw FROM entries WHERE session_id = ? AND first_line = ?",
            (session_id, first_line),
        ).fetchone()
        db.execute(
            "UPDATE entries SET line_index = ? WHERE session_id = ? AND first_line = ?",
            (encode_chunk_index(bytes(raw).split(b"\n")), session_id, first_line),
        )


def _v4_index_runs(db: sqlite3.Connection) -> None:
    """v3 → v4: runs of chunk indexes (:mod:`tether.builtin_plugins.storage.sql.chunk_runs`: a
    session of
    many small chunks loads from a few rows), built for the chunks already stored."""
    db.execute(create_runs_table(TABLES, "BLOB"))
    build_all_runs(lambda sql, args: db.execute(sql, args).fetchall(), db.execute, TABLES)


STEPS = {2: _v2_full_text, 3: _v3_line_index, 4: _v4_index_runs}  # version → its step


def schema_version(db: sqlite3.Connection, where: str) -> int | None:
    """The database's schema version; ``None`` for an empty database (no tables)."""
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if not tables:
        return None
    if "tether_schema" not in tables:
        raise StoreError(f"{where}: not a tether session database (it has other tables)")
    row = db.execute("SELECT version FROM tether_schema").fetchone()
    if row is None or not isinstance(row[0], int):
        raise StoreError(f"{where}: not a tether session database (no schema version)")
    return int(row[0])


def ensure_schema(db: sqlite3.Connection, where: str, *, target: int = VERSION) -> int:
    """Create or migrate the schema up to ``target`` (one transaction); returns the version
    found. A newer database is refused (``StoreError``)."""
    found = schema_version(db, where)
    if found == target:
        return found
    if found is not None and found > target:
        raise StoreError(
            f"{where}: the database has schema version {found}; this tether knows versions "
            f"up to {target} — upgrade tether to use it"
        )
    db.execute("BEGIN IMMEDIATE")
    try:
        found = schema_version(db, where)  # another process may have done it meanwhile
        current = found
        if current is None:
            for statement in BASELINE.split(";"):
                if statement.strip():
                    db.execute(statement)
            current = 1
        while current < target:
            current += 1
            STEPS[current](db)
            db.execute("UPDATE tether_schema SET version = ?", (current,))
        db.execute("COMMIT")
    except BaseException:
        from tether.builtin_plugins.storage.sqlite.errors import rollback_quietly

        rollback_quietly(db)  # never hides the error that ended the transaction
        raise
    return found if found is not None else 0


__all__ = ["BASELINE", "STEPS", "TABLES", "VERSION", "ensure_schema", "schema_version"]
