"""The database stores' schema, versioned: the baseline (v1) and each step up to
:data:`VERSION`, written once for both backends (a :class:`~.dialect.Dialect` names what
differs). A new database gets v1, then every step, in one transaction; an older one gets the
missing steps; a newer one (written by a later tether) is refused with one line, never changed.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from tether.builtin_plugins.storage.sql.chunk_index import encode_chunk_index
from tether.builtin_plugins.storage.sql.database import facts_of_line
from tether.builtin_plugins.storage.sql.dialect import Dialect
from tether.builtin_plugins.storage.sql.index_runs import build_all_runs, create_runs_table
from tether.storage import StoreError

VERSION = 4

BASELINE = (
    "CREATE TABLE tether_schema (version INTEGER NOT NULL)",
    "INSERT INTO tether_schema (version) VALUES (1)",
    """CREATE TABLE {s} (
        id TEXT PRIMARY KEY,
        cwd TEXT NOT NULL,
        created TEXT NOT NULL,
        modified TEXT NOT NULL,
        name TEXT,
        parent_session TEXT,
        header {blob} NOT NULL,
        line_count INTEGER NOT NULL,
        message_count INTEGER NOT NULL,
        first_message TEXT NOT NULL,
        trailing_newline {boolean} NOT NULL
    )""",
    "CREATE INDEX {s}_by_cwd ON {s} (cwd, modified)",
    "CREATE INDEX {s}_by_modified ON {s} (modified)",
    """CREATE TABLE {e} (
        session_id TEXT NOT NULL,
        first_line INTEGER NOT NULL,
        line_count INTEGER NOT NULL,
        raw {blob} NOT NULL,
        PRIMARY KEY (session_id, first_line)
    )""",
)


def baseline(d: Dialect) -> list[str]:
    """Schema v1's statements for ``d`` (chunks are read whole and often: where the backend
    can, they are stored uncompressed; a 100k-entry session reads 2x faster)."""
    return [d.sql(s) for s in BASELINE] + d.uncompressed("{e}", "raw") + list(d.leases)


def _v2_full_text(d: Dialect, db: Any) -> None:
    """v1 → v2: full-text search over user and assistant messages, filled from the entries."""
    for statement in d.full_text:
        db.execute(statement)
    rows = db.execute(d.sql("SELECT session_id, first_line, raw FROM {e}")).fetchall()
    insert = d.sql("INSERT INTO {t} (session_id, seq, text) VALUES (?, ?, ?)")
    for session_id, first_line, raw in rows:
        for seq, line in enumerate(bytes(raw).split(b"\n"), first_line):
            facts = facts_of_line(line)
            if facts.kind == "message" and facts.text:
                db.execute(insert, (session_id, seq, facts.text))


def _v3_line_index(d: Dialect, db: Any) -> None:
    """v2 → v3: each chunk's line index (loading without scanning), computed for the chunks
    already stored; read whole and often, so stored like the chunks."""
    db.execute(d.sql("ALTER TABLE {e} ADD COLUMN line_index {blob}"))
    for statement in d.uncompressed("{e}", "line_index"):
        db.execute(statement)
    keys = db.execute(d.sql("SELECT session_id, first_line FROM {e}")).fetchall()
    for session_id, first_line in keys:
        (raw,) = db.execute(
            d.sql("SELECT raw FROM {e} WHERE session_id = ? AND first_line = ?"),
            (session_id, first_line),
        ).fetchone()
        db.execute(
            d.sql("UPDATE {e} SET line_index = ? WHERE session_id = ? AND first_line = ?"),
            (encode_chunk_index(bytes(raw).split(b"\n")), session_id, first_line),
        )


def _v4_index_runs(d: Dialect, db: Any) -> None:
    """v3 → v4: runs of chunk indexes (:mod:`.chunk_runs`: a session of
    many small chunks loads from a few rows), built for the chunks already stored."""
    for statement in create_runs_table(d):
        db.execute(statement)
    build_all_runs(lambda sql, args: db.execute(sql, args).fetchall(), db.execute, d)


STEPS: dict[int, Callable[[Dialect, Any], None]] = {
    2: _v2_full_text,
    3: _v3_line_index,
    4: _v4_index_runs,
}


def ensure_schema(
    d: Dialect,
    db: Any,
    where: str,
    target: int,
    version: Callable[[], int | None],
    transaction: Callable[[], AbstractContextManager[Any]],
) -> int:
    """Create or migrate the schema up to ``target`` in one ``transaction()`` (which keeps
    other processes out); returns the version ``version()`` found (0: a new database)."""
    found = version()
    if found == target:
        return found
    if found is not None and found > target:
        raise StoreError(
            f"{where}: the database has schema version {found}; this tether knows versions "
            f"up to {target} — upgrade tether to use it"
        )
    with transaction():
        found = version()  # another process may have done it meanwhile
        current = found
        if current is None:
            for statement in baseline(d):
                db.execute(statement)
            current = 1
        if current > target:
            raise StoreError(f"{where}: the database has schema version {current}")
        while current < target:
            current += 1
            STEPS[current](d, db)
            db.execute(d.sql("UPDATE tether_schema SET version = ?"), (current,))
    return found if found is not None else 0


__all__ = ["BASELINE", "STEPS", "VERSION", "baseline", "ensure_schema"]
