"""Built-in plugin ``postgresql_store``: sessions in a PostgreSQL database
(``postgresql://USER@HOST/DB``), through psycopg 3 (the ``tether[postgres]`` extra), imported
only for such a URI.
"""

from __future__ import annotations

from typing import Any

from tether.hookspecs import hookimpl


@hookimpl
def open_store(uri: str, settings: Any) -> Any:
    """A :class:`PostgresDatabase` for a ``postgresql://`` (or ``postgres://``) URI."""
    if not uri.startswith(("postgresql://", "postgres://")):
        return None
    from tether.builtin_plugins.storage.postgresql.database import PostgresDatabase

    return PostgresDatabase(uri, settings)
