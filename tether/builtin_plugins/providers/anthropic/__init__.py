"""Built-in plugin `provider_anthropic`: the ``anthropic-messages`` adapter and the
``anthropic`` provider (by name alone).

The adapter lives in :mod:`tether.builtin_plugins.providers.anthropic.messages`
and is imported only when a model is resolved: starting tether does not import httpx.
"""

from __future__ import annotations

from typing import Any

from tether.hookspecs import hookimpl

PROVIDER_DEFAULTS: dict[str, Any] = {
    "baseUrl": "https://api.anthropic.com",
    "api": "anthropic-messages",
    "apiKeyEnv": "ANTHROPIC_API_KEY",
    "contextWindow": 200000,
    "maxTokens": 32000,
    "input": ["text", "image"],
}


@hookimpl(trylast=True)
def register_providers(register: Any) -> None:
    from tether.builtin_plugins.providers.anthropic.messages import AnthropicMessagesProvider

    register(AnthropicMessagesProvider())


@hookimpl(trylast=True)
def register_provider_defaults(register: Any) -> None:
    register("anthropic", PROVIDER_DEFAULTS)
