"""Built-in plugin `provider_openai`: registers the ``openai-completions`` adapter.

The adapter lives in :mod:`tether.builtin_plugins._openai_completions`
and is imported only when a model is resolved: starting tether does not import httpx.
"""

from __future__ import annotations

from typing import Any

from tether.hookspecs import hookimpl


@hookimpl(trylast=True)
def register_providers(register: Any) -> None:
    from tether.builtin_plugins._openai_completions import OpenAICompletionsProvider

    register(OpenAICompletionsProvider())
