"""Which session store the commands use: ``--store URI``, ``TETHER_STORE``, ``session.store``.

``jsonl`` (or nothing) is the default — one pi-format file per session, the commands take
FILE arguments as before. A database URI (``sqlite:///PATH``, ``postgresql://USER@HOST/DB``, or
any URI a store plugin answers ``open_store`` for) makes every command work in that database:
a session is then named by its id or a unique id prefix where a FILE is taken otherwise.
The kernel moves ``--store URI``, wherever it stands on the command line, into
``TETHER_STORE`` before the command runs; the setting is read without pydantic, so JSONL
commands start as fast as before.
"""

from __future__ import annotations

import os
from typing import Any

EXAMPLES = "jsonl, sqlite:///PATH or postgresql://USER@HOST/DB"


def store_uri(cwd: str | None = None) -> str | None:
    """The configured database URI, or ``None`` for the JSONL default."""
    from tether import peek_setting

    value = peek_setting("session", "store", cwd)
    if value is None or (isinstance(value, str) and value.strip() in ("", "jsonl")):
        return None
    if not isinstance(value, str) or "://" not in value or value.startswith("file://"):
        from tether.cli import UsageError

        raise UsageError(f"--store: expected {EXAMPLES}, not {value!r}")
    return value.strip()


def _command_context() -> Any:
    """The running command's root click context, or ``None`` outside a command."""
    from typer._click.globals import get_current_context  # typer's own click

    context = get_current_context(silent=True)
    return context.find_root() if context is not None else None


def plugin_manager() -> Any:
    """The running command's plugin manager (outside a command: the current plugin scope's,
    else a new one: ``tether.storage.default_plugins``)."""
    context = _command_context()
    pm = context.obj if context is not None else None
    if pm is None:
        from tether.storage import default_plugins

        pm = default_plugins()
    return pm


def open_database(uri: str) -> Any:
    """The :class:`~tether.builtin_plugins.storage.sql.database.SessionDatabase` of ``uri``
    from the store plugin that answers ``open_store`` for it. Within a command it is opened
    once and closed when the command ends; there is no process-wide cache, so two commands
    (or two tests) never share a connection or a plugin manager."""
    context = _command_context()
    opened: dict[str, Any] = context.meta.setdefault("tether.databases", {}) if context else {}
    if uri in opened:
        return opened[uri]
    from tether import Hooks
    from tether.cli import LazySettings
    from tether.storage import StoreError, describe_uri

    try:
        database = Hooks(plugin_manager()).open_store(uri, LazySettings(os.getcwd()))
    except StoreError as exc:  # the store's own words (bad URI, server, login, schema)
        failure = getattr(exc, "hook_failure", None)
        raise StoreError(getattr(failure, "detail", None) or str(exc)) from None
    if database is None or not hasattr(database, "session_store"):
        raise StoreError(f"{describe_uri(uri)}: no store plugin handles this URI ({EXAMPLES})")
    opened[uri] = database
    if context is not None and callable(getattr(database, "close", None)):
        context.call_on_close(database.close)
    return database


def active_database(cwd: str | None = None) -> Any:
    """The database the commands work in, or ``None`` for JSONL files."""
    uri = store_uri(cwd)
    return open_database(uri) if uri is not None else None


def open_stored_session(
    database: Any, ref: str, *, readonly: bool = True, validate_all: bool = False
) -> Any:
    """The session ``ref`` (an id or a unique prefix) of ``database``."""
    from tether import Session, SessionFileError
    from tether.storage import uri_without_password

    store = database.session_store(database.resolve(ref))
    loaded = store.load(readonly=readonly, validate_all=validate_all)
    if loaded.header is None:
        raise SessionFileError(f"{uri_without_password(store.uri)}: no such session")
    return Session(store=store, loaded=loaded, readonly=readonly, plugins=plugin_manager())


def session_label(session: Any) -> str:
    """How a command names a session it made: its file, else its store URI with the id."""
    if session.file is not None:
        return str(session.file)
    from tether.storage import uri_without_password

    store = session.store
    return uri_without_password(str(store.uri)) if store is not None else "(memory)"


__all__ = [
    "active_database",
    "plugin_manager",
    "open_database",
    "open_stored_session",
    "session_label",
    "store_uri",
]
