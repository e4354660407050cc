"""Built-in plugin `provider_openai`: the ``openai-completions`` adapter and the providers that
speak it by name alone: ``openai``, ``openrouter`` and ``ollama`` (local, no key).

``openai`` lists its current models with their window, output limit, reasoning, inputs and
price ($ per million tokens; the figures pi 0.73 ships, in ``openai_models.json``), so that
``openai/o3`` is known to be a reasoning model (``developer`` role, ``reasoning_effort``)
without a models.json entry.

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


def openai_models() -> list[dict[str, Any]]:
    """pi's figures for the ``openai`` models, as ``models`` entries of a models.json (data,
    one model a line), read when the defaults are registered, not when tether starts."""
    import json
    from pathlib import Path

    text = Path(__file__).with_name("openai_models.json").read_text(encoding="utf-8")
    models: list[dict[str, Any]] = json.loads(text)
    return models


@hookimpl(trylast=True)
def register_providers(register: Any) -> None:
    from tether.builtin_plugins.providers.openai.completions import OpenAICompletionsProvider

    register(OpenAICompletionsProvider())


@hookimpl(trylast=True)
def register_provider_defaults(register: Any) -> None:
    for name, defaults in PROVIDER_DEFAULTS.items():
        register(name, {**defaults, "models": openai_models()} if name == "openai" else defaults)
