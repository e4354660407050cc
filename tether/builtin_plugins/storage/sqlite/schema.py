"""The SQLite store's dialect and schema (:mod:`~tether.builtin_plugins.storage.sql.versions`:
the baseline and its steps): migrated in one ``BEGIN IMMEDIATE`` transaction."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from tether.builtin_plugins.storage.sql import versions
from tether.builtin_plugins.storage.sql.dialect import Dialect
from tether.builtin_plugins.storage.sql.versions import VERSION
from tether.storage import StoreError

FTS5 = "CREATE VIRTUAL TABLE message_text USING fts5(session_id UNINDEXED, seq UNINDEXED, text)"
DIALECT = Dialect("", mark="?", size="length", blob="BLOB", boolean="INTEGER", full_text=(FTS5,))


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


@contextmanager
def _immediate(db: sqlite3.Connection) -> Iterator[None]:
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        from tether.builtin_plugins.storage.sqlite.errors import rollback_quietly

        rollback_quietly(db)  # never hides the error that ended the transaction
        raise


def ensure_schema(db: sqlite3.Connection, where: str, *, target: int = VERSION) -> int:
    """Create or migrate the schema up to ``target`` (one transaction); returns the version
    found. A newer database is refused (``StoreError``)."""
    return versions.ensure_schema(
        DIALECT, db, where, target, lambda: schema_version(db, where), lambda: _immediate(db)
    )


__all__ = ["DIALECT", "VERSION", "ensure_schema", "schema_version"]
