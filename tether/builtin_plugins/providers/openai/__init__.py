"""Built-in plugin `provider_openai`: the ``openai-completions`` adapter and the providers that
speak it by name alone: ``openai``, ``openrouter`` and ``ollama`` (local, no key).

The adapter lives in :mod:`tether.builtin_plugins.providers.openai.completions`
and is imported only when a model is resolved: starting tether does not import httpx.
"""

from __future__ import annotations

from typing import Any

from tether.hookspecs import hookimpl

PROVIDER_DEFAULTS: dict[str, dict[str, Any]] = {
    "openai": {
        "baseUrl": "https://api.openai.com/v1",
        "api": "openai-completions",
        "apiKeyEnv": "OPENAI_API_KEY",
    },
    "openrouter": {
        "baseUrl": "https://openrouter.ai/api/v1",
        "api": "openai-completions",
        "apiKeyEnv": "OPENROUTER_API_KEY",
    },
    "ollama": {"baseUrl": "http://localhost:11434/v1", "api": "openai-completions"},
}


@hookimpl(trylast=True)
def register_providers(register: Any) -> None:
    from tether.builtin_plugins.providers.openai.completions import OpenAICompletionsProvider

    register(OpenAICompletionsProvider())


@hookimpl(trylast=True)
def register_provider_defaults(register: Any) -> None:
    for name, defaults in PROVIDER_DEFAULTS.items():
        register(name, defaults)
