"""Connecting to PostgreSQL, with one clear line for every way it fails (no hooks here)."""

from __future__ import annotations

from typing import Any

import psycopg

from tether.core.storage.database import StoreError, describe_uri

CONNECT_TIMEOUT = 10


def connect(uri: str) -> Any:
    """A connection (autocommit; transactions are explicit), or one clear error line."""
    where = describe_uri(uri)
    try:
        return psycopg.connect(uri, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
    except psycopg.ProgrammingError as exc:
        raise StoreError(f"{where}: not a valid PostgreSQL URI: {first_line(exc)}") from None
    except psycopg.OperationalError as exc:
        detail = first_line(exc)
        if "password authentication failed" in detail or "no password supplied" in detail:
            raise StoreError(f"{where}: the server refused the login: {detail}") from None
        raise StoreError(f"{where}: cannot connect to the database: {detail}") from None


def first_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split("\n")[0].split())
    return text.removeprefix("connection failed: ") or type(exc).__name__


__all__ = ["CONNECT_TIMEOUT", "connect", "first_line"]
