"""Built-in plugin ``model_registry``: models.json, provider defaults, API keys and redaction.

It answers the ``model_registry`` hook with a :class:`~.registry.ProviderRegistry`: the
providers plugins register, merged with ``<tether home>/models.json`` (format:
:mod:`.registry`), keys from ``--api-key``, the environment or the file, and every failed
call's error text cleaned of keys (:mod:`.redact`). The registry is imported on first use, so
loading the plugin costs nothing at start-up.
"""

from __future__ import annotations

from typing import Any

from tether.hookspecs import hookimpl


@hookimpl(trylast=True)
def model_registry(pm: Any, settings: Any) -> Any:
    from tether.builtin_plugins.providers.models.registry import ProviderRegistry

    return ProviderRegistry(pm, settings=settings)
