"""The public toolkit for provider plugins: the model and provider contract, stream events,
the typed errors a call raises (the retry policy reads them) and the helpers pi's wire
formats need. See docs/plugins.md ("Provider plugins").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tether._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "Model": "tether.core.agent.providers",
    "Provider": "tether.core.agent.providers",
    "LlmContext": "tether.core.agent.providers",
    "StreamOptions": "tether.core.agent.providers",
    "StreamEvent": "tether.core.agent.providers",
    "IDLE_TIMEOUT": "tether.core.agent.providers",
    "empty_usage": "tether.core.agent.providers",
    "now_ms": "tether.core.storage.ids",
    "ProviderError": "tether.core.base.errors",
    "ProviderConfigError": "tether.core.base.errors",
    "TransientError": "tether.core.base.errors",
    "PermanentError": "tether.core.base.errors",
    "ContextOverflowError": "tether.core.base.errors",
    "AbortedError": "tether.core.base.errors",
    "prepare_for_provider": "tether.builtin_plugins.providers.transform",
    "BRANCH_SUMMARY_PREFIX": "tether.core.context.convert",
    "COMPACTION_SUMMARY_PREFIX": "tether.core.context.convert",
    "token_count": "tether.builtin_plugins.providers.numbers",
    "drop_non_finite": "tether.builtin_plugins.providers.numbers",
    "encode_json_body": "tether.core.context.text_safety",
    "dumps_clean": "tether.core.context.text_safety",
    "read_json_file": "tether.core.base.paths",
    "tether_home": "tether.core.base.paths",
    "warn_once": "tether.builtin_plugins.providers.numbers",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:  # what type checkers see; at run time __getattr__ imports lazily
    from tether.builtin_plugins.providers.numbers import drop_non_finite, token_count, warn_once
    from tether.builtin_plugins.providers.transform import prepare_for_provider
    from tether.core.agent.providers import (
        IDLE_TIMEOUT,
        LlmContext,
        Model,
        Provider,
        StreamEvent,
        StreamOptions,
        empty_usage,
    )
    from tether.core.base.errors import (
        AbortedError,
        ContextOverflowError,
        PermanentError,
        ProviderConfigError,
        ProviderError,
        TransientError,
    )
    from tether.core.base.paths import read_json_file, tether_home
    from tether.core.context.convert import BRANCH_SUMMARY_PREFIX, COMPACTION_SUMMARY_PREFIX
    from tether.core.context.text_safety import dumps_clean, encode_json_body
    from tether.core.storage.ids import now_ms

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
