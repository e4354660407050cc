"""A typed facade over ``pm.hook``: call sites get real types and keyword-only calls."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tether.core.plugins import PluginManager
    from tether.hookspecs.events import (
        CompactionPreparation,
        CompactionSettings,
        Entry,
        Message,
        NothingToCompact,
        SummarizeRequest,
        Summary,
    )


class Hooks:
    """Wraps one plugin manager; each method calls the hook of the same name."""

    def __init__(self, pm: PluginManager) -> None:
        self.pm = pm
        self._hook = pm.hook

    def count_tokens(
        self, messages: list[Message], model: dict[str, Any] | None = None
    ) -> list[int]:
        result = self._hook.count_tokens(messages=messages, model=model)
        if result is None:
            raise RuntimeError("no plugin answered count_tokens (is 'token_estimate' disabled?)")
        return list(result)

    def prepare_compaction(
        self, path: list[Entry], settings: CompactionSettings, session: Any = None
    ) -> CompactionPreparation | NothingToCompact | None:
        return self._hook.prepare_compaction(path=path, settings=settings, session=session)

    def summarize(self, request: SummarizeRequest) -> Summary | None:
        return self._hook.summarize(request=request)

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
