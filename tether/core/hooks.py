"""A typed facade over ``pm.hook``: call sites get real types and keyword-only calls."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tether.core.plugins import PluginManager


class Hooks:
    """Wraps one plugin manager; each method calls the hook of the same name."""

    def __init__(self, pm: PluginManager) -> None:
        self.pm = pm
        self._hook = pm.hook

    def open_store(self, uri: str, settings: Any = None) -> Any:
        return self._hook.open_store(uri=uri, settings=settings)

    def http_client(self, purpose: str) -> Any:
        return self._hook.http_client(purpose=purpose)

    def notify(self, name: str, **kwargs: Any) -> None:
        """Call a notify hook by name (``agent_event``, ``session_compact``…)."""
        getattr(self._hook, name)(**kwargs)

    def call(self, name: str, **kwargs: Any) -> Any:
        """Call any hook by name and return pluggy's result."""
        return getattr(self._hook, name)(**kwargs)


__all__ = ["Hooks"]
