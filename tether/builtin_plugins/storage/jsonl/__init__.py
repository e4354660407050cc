"""Built-in plugin ``jsonl_store``: the default session storage, pi's JSONL files.

Answers ``open_store`` for plain paths and ``file://`` URIs (``trylast``, so a storage plugin
that handles the same URI wins). ``settings.session.fsync`` (or ``TETHER_FSYNC``) decides
whether appends are fsynced.
"""

from __future__ import annotations

from typing import Any

from tether.hookspecs import hookimpl


def _fsync_setting(settings: Any) -> bool | None:
    session = getattr(settings, "session", None)
    value = getattr(session, "fsync", None)
    return value if isinstance(value, bool) else None


@hookimpl(trylast=True)
def open_store(uri: str, settings: Any) -> Any:
    """A :class:`tether.builtin_plugins.storage.jsonl.store.JsonlStore` for a path or ``file://``
    URI; ``None``
    otherwise."""
    if uri.startswith("file://"):
        uri = uri[len("file://") :]
    elif "://" in uri:
        return None
    from tether.builtin_plugins.storage.jsonl.store import JsonlStore

    return JsonlStore(uri, fsync=_fsync_setting(settings))
