"""The PostgreSQL store's dialect and schema (:mod:`~tether.builtin_plugins.storage.sql.versions`:
the baseline and its steps), migrated in one transaction under an advisory lock (two processes
opening a new database at once do it once). Tables are prefixed ``tether_``: the database may
hold other things.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tether.builtin_plugins.storage.sql import versions
from tether.builtin_plugins.storage.sql.dialect import Dialect
from tether.builtin_plugins.storage.sql.versions import VERSION

SCHEMA_LOCK = 0x7E7E_0001  # the advisory lock that serialises schema changes

DIALECT = Dialect(
    "tether_",
    mark="%s",
    size="octet_length",
    blob="BYTEA",
    boolean="BOOLEAN",
    lock_row=" FOR UPDATE",
    full_text=(
        """CREATE TABLE tether_message_text (
            session_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            text TEXT NOT NULL,
            tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', text)) STORED,
            PRIMARY KEY (session_id, seq)
        )""",
        "CREATE INDEX tether_message_text_tsv ON tether_message_text USING GIN (tsv)",
    ),
    leases=(
        """CREATE TABLE tether_leases (
            session_id TEXT PRIMARY KEY,
            pid INTEGER,
            host TEXT,
            command TEXT,
            since DOUBLE PRECISION
        )""",
    ),
    external=True,
)


def schema_version(conn: Any) -> int | None:
    row = conn.execute("SELECT to_regclass('tether_schema') IS NOT NULL").fetchone()
    if not row[0]:
        return None
    row = conn.execute("SELECT version FROM tether_schema").fetchone()
    return None if row is None else int(row[0])


@contextmanager
def _locked(conn: Any) -> Iterator[None]:
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
        yield


def ensure_schema(conn: Any, where: str, *, target: int = VERSION) -> int:
    """Create or migrate the schema up to ``target``; returns the version found (0: new)."""
    return versions.ensure_schema(
        DIALECT, conn, where, target, lambda: schema_version(conn), lambda: _locked(conn)
    )


__all__ = ["DIALECT", "VERSION", "ensure_schema", "schema_version"]
