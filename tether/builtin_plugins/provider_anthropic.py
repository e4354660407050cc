"""Built-in plugin `provider_anthropic`: registers the ``anthropic-messages`` adapter.

The adapter lives in :mod:`tether.builtin_plugins._anthropic_messages`
and is imported only when a model is resolved: starting tether does not import httpx.
"""

from __future__ import annotations

from typing import Any

from tether.hookspecs import hookimpl


@hookimpl(trylast=True)
def register_providers(register: Any) -> None:
    from tether.builtin_plugins._anthropic_messages import AnthropicMessagesProvider

    register(AnthropicMessagesProvider())
