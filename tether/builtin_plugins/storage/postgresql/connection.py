"""Connecting to PostgreSQL, with one clear line for every way it fails (no hooks here).

A server that cannot be reached (down, restarting, refusing connections) is a
:class:`StoreConnectionError`: an append in flight retries it
(:mod:`tether.builtin_plugins.storage.sql.db_store`).
A bad URI or a refused login is a plain :class:`StoreError`: retrying cannot help.
"""

from __future__ import annotations

import math
from typing import Any

import psycopg

from tether.storage import StoreConnectionError, StoreError, describe_uri

CONNECT_TIMEOUT = 10


def connect(uri: str, timeout: float = CONNECT_TIMEOUT) -> Any:
    """A connection (autocommit; transactions are explicit), or one clear error line;
    ``timeout``: seconds to wait for the server (libpq takes whole seconds, at least 2)."""
    where = describe_uri(uri)
    try:
        return psycopg.connect(uri, autocommit=True, connect_timeout=max(2, math.ceil(timeout)))
    except psycopg.ProgrammingError as exc:
        raise StoreError(f"{where}: not a valid PostgreSQL URI: {first_line(exc)}") from None
    except psycopg.OperationalError as exc:
        detail = first_line(exc)
        if "password authentication failed" in detail or "no password supplied" in detail:
            raise StoreError(f"{where}: the server refused the login: {detail}") from None
        raise StoreConnectionError(f"{where}: cannot connect to the database: {detail}") from None


def first_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split("\n")[0].split())
    return text.removeprefix("connection failed: ") or type(exc).__name__


__all__ = ["CONNECT_TIMEOUT", "connect", "first_line"]
