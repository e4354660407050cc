"""Built-in plugin `provider_openai`: the ``openai-completions`` adapter and the providers that
speak it by name alone: ``openai``, ``openrouter`` and ``ollama`` (local, no key).

``openai`` lists its current models with their window, output limit, reasoning, inputs and
price ($ per million tokens; the figures pi 0.73 ships), so that ``openai/o3`` is known to be
a reasoning model (``developer`` role, ``reasoning_effort``) without a models.json entry.

The adapter lives in :mod:`tether.builtin_plugins.providers.openai.completions`
and is imported only when a model is resolved: starting tether does not import httpx.
"""

from __future__ import annotations

from typing import Any

from tether.hookspecs import hookimpl

# id, name, reasoning, image input, context window, max output, $ in/out/cache read per 1M
OPENAI_MODELS = (
    ("gpt-4o", "GPT-4o", False, True, 128000, 16384, (2.5, 10, 1.25)),
    ("gpt-4o-mini", "GPT-4o mini", False, True, 128000, 16384, (0.15, 0.6, 0.08)),
    ("gpt-4.1", "GPT-4.1", False, True, 1047576, 32768, (2, 8, 0.5)),
    ("gpt-4.1-mini", "GPT-4.1 mini", False, True, 1047576, 32768, (0.4, 1.6, 0.1)),
    ("gpt-4.1-nano", "GPT-4.1 nano", False, True, 1047576, 32768, (0.1, 0.4, 0.03)),
    ("gpt-5", "GPT-5", True, True, 400000, 128000, (1.25, 10, 0.125)),
    ("gpt-5-mini", "GPT-5 Mini", True, True, 400000, 128000, (0.25, 2, 0.025)),
    ("gpt-5-nano", "GPT-5 Nano", True, True, 400000, 128000, (0.05, 0.4, 0.005)),
    ("gpt-5.1", "GPT-5.1", True, True, 400000, 128000, (1.25, 10, 0.13)),
    ("o1", "o1", True, True, 200000, 100000, (15, 60, 7.5)),
    ("o3", "o3", True, True, 200000, 100000, (2, 8, 0.5)),
    ("o3-mini", "o3-mini", True, False, 200000, 100000, (1.1, 4.4, 0.55)),
    ("o4-mini", "o4-mini", True, True, 200000, 100000, (1.1, 4.4, 0.28)),
)


def _model_entry(row: tuple[Any, ...]) -> dict[str, Any]:
    model_id, name, reasoning, image, window, max_tokens, (inp, out, cached) = row
    return {
        "id": model_id,
        "name": name,
        "reasoning": reasoning,
        "input": ["text", "image"] if image else ["text"],
        "contextWindow": window,
        "maxTokens": max_tokens,
        "cost": {"input": inp, "output": out, "cacheRead": cached, "cacheWrite": 0},
    }


PROVIDER_DEFAULTS: dict[str, dict[str, Any]] = {
    "openai": {
        "baseUrl": "https://api.openai.com/v1",
        "api": "openai-completions",
        "apiKeyEnv": "OPENAI_API_KEY",
        "models": [_model_entry(row) for row in OPENAI_MODELS],
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
