"""The public toolkit for provider plugins: the model and provider contract, stream events,
the typed errors a call raises (the retry policy reads them) and the helpers pi's wire
formats need. See docs/plugins.md ("Public modules").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tether._lazy import lazy_exports

if TYPE_CHECKING:  # the exports: what type checkers see, and what lazy_exports reads
    from tether.builtin_plugins.providers.numbers import drop_non_finite, token_count, warn_once
    from tether.builtin_plugins.providers.text_safety import dumps_clean, encode_json_body
    from tether.builtin_plugins.providers.transform import prepare_for_provider
    from tether.core.base.paths import read_json_file, tether_home
    from tether.core.context.convert import BRANCH_SUMMARY_PREFIX, COMPACTION_SUMMARY_PREFIX
    from tether.core.storage.ids import now_ms
    from tether.hookspecs.providers import *  # noqa: F403 - its __all__, listed there

__getattr__, __dir__ = lazy_exports(__name__, globals())
