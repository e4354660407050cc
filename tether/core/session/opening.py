"""Opening a session's store: every session, in every command, through the ``open_store`` hook.

A plain path or ``file://`` URI is answered by the built-in ``jsonl_store`` plugin (``trylast``);
``sqlite://`` and ``postgresql://`` by theirs; any URI by a third-party store plugin.

Which plugin manager: the caller's (the CLI, the harness and the commands pass theirs). A call
that names none uses the manager of the :class:`PluginScope` it runs in (the CLI's ``main``
and ``tether.testing`` enter one for their app or test); outside any scope it gets a manager
of its own. No manager lives at module level: a scope's manager is
the app's or the test's, and is forgotten when the scope ends.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from contextvars import ContextVar, Token
from typing import Any

from tether.core.storage.errors import StoreError, describe_uri
from tether.hookspecs.store import SessionStore

_SCOPE: ContextVar[PluginScope | None] = ContextVar("tether_plugin_scope", default=None)


class PluginScope:
    """The plugin manager of one app or one test, for the calls inside ``with scope:`` that
    name none: ``plugins`` when given, else one made by ``make`` (default: the installed
    plugins) when first asked for. Scopes nest; each thread or task starts outside any."""

    def __init__(self, plugins: Any = None, *, make: Callable[[], Any] | None = None) -> None:
        self._plugins = plugins
        self._make = make
        self._tokens: list[Token[PluginScope | None]] = []

    @property
    def plugins(self) -> Any:
        if self._plugins is None:
            if self._make is None:
                from tether.core.host.manager import create_plugin_manager

                self._make = create_plugin_manager
            self._plugins = self._make()
        return self._plugins

    def __enter__(self) -> PluginScope:
        self._tokens.append(_SCOPE.set(self))
        return self

    def __exit__(self, *exc: object) -> None:
        _SCOPE.reset(self._tokens.pop())


def default_plugins() -> Any:
    """The plugin manager for a call that names none: the current :class:`PluginScope`'s,
    else a new one (the installed plugins), which the caller keeps."""
    scope = _SCOPE.get()
    if scope is not None:
        return scope.plugins
    from tether.core.host.manager import create_plugin_manager

    return create_plugin_manager()


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


__all__ = ["PluginScope", "default_plugins", "lease_session", "lease_store", "open_store"]
