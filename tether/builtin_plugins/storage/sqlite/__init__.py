"""Built-in plugin ``sqlite_store``: sessions in one SQLite database (``sqlite:///PATH``).

Answers ``open_store`` for ``sqlite://`` URIs with a
:class:`~tether.builtin_plugins.storage.sqlite.database.SqliteDatabase` (stdlib ``sqlite3``,
imported only then, so JSONL commands start as fast as before). ``session.fsync`` false (or
``TETHER_FSYNC=0``) trades durability against power loss for speed: ``synchronous=NORMAL``.
"""

from __future__ import annotations

from typing import Any

from tether.hookspecs import hookimpl


@hookimpl
def open_store(uri: str, settings: Any) -> Any:
    """A :class:`SqliteDatabase` for a ``sqlite://`` URI; ``None`` otherwise."""
    if not uri.startswith("sqlite://"):
        return None
    from tether.builtin_plugins.storage.sqlite.database import SqliteDatabase

    def fsync() -> bool:  # asked before the first write: reading loads no settings
        value = getattr(getattr(settings, "session", None), "fsync", True)
        return value if isinstance(value, bool) else True

    return SqliteDatabase(uri, fsync=fsync)
