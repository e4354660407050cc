"""Opening a session's store: every session, in every command, through the ``open_store`` hook.

A plain path or ``file://`` URI is answered by the built-in ``jsonl_store`` plugin (``trylast``);
``sqlite://`` and ``postgresql://`` by theirs; any URI by a third-party store plugin. Callers
that have a plugin manager (the CLI, the harness) pass it; library calls without one use a
default manager, made once per process.
"""

from __future__ import annotations

import os
from typing import Any

from tether.core.storage.errors import StoreError, describe_uri
from tether.core.storage.protocol import SessionStore

_DEFAULT: list[Any] = []


def default_plugins() -> Any:
    """The plugin manager for library calls that name none (made on first use)."""
    if not _DEFAULT:
        from tether.core.host.manager import create_plugin_manager

        _DEFAULT.append(create_plugin_manager())
    return _DEFAULT[0]


def open_store(
    uri: str | os.PathLike[str],
    *,
    plugins: Any = None,
    settings: Any = None,
    fsync: bool | None = None,
) -> SessionStore:
    """The :class:`SessionStore` the plugins' ``open_store`` hook answers for ``uri``;
    ``fsync`` (when given) overrides the store's own choice. :class:`StoreError` when no
    plugin answers, or the answer holds many sessions (a database: see ``session_store``)."""
    text = os.fspath(uri)
    manager = plugins if plugins is not None else default_plugins()
    store = manager.hook.open_store(uri=text, settings=settings)
    if store is None or not hasattr(store, "load"):
        why = "no store plugin handles this URI" if store is None else "not a single session"
        raise StoreError(f"{describe_uri(text)}: {why}")
    if fsync is not None and hasattr(store, "fsync"):
        store.fsync = fsync
    return store  # type: ignore[no-any-return]


def lease_session(session: Any, wait: float = 0.0, **options: Any) -> Any:
    """The acquired one-writer lease of ``session``'s store (``release()`` gives it back);
    ``None`` for an in-memory or read-only session, or a store without leases. ``options``
    go to the store's ``lease``."""
    if getattr(session, "readonly", False):
        return None
    return lease_store(getattr(session, "store", None), wait, **options)


def lease_store(store: Any, wait: float = 0.0, **options: Any) -> Any:
    """``store.lease(wait, **options)``, or ``None`` when the store has no leases."""
    lease = getattr(store, "lease", None)
    return None if lease is None else lease(wait, **options)


__all__ = ["default_plugins", "lease_session", "lease_store", "open_store"]
