"""The public toolkit for command plugins: the sub-command groups of ``tether``, shared
options, settings read without loading plugins, errors that end a command with one line, and
what starting an agent or printing its prompt takes. See docs/plugins.md ("Public modules").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tether._lazy import lazy_exports

if TYPE_CHECKING:  # the exports: what type checkers see, and what lazy_exports reads
    from tether.builtin_plugins.providers.numbers import json_text
    from tether.core.agent.prompt import assemble_system_prompt, build_prompt_options
    from tether.core.base.errors import HookInterrupted, SessionWriteError, UsageError
    from tether.core.base.settings_peek import LazySettings, peek_section
    from tether.core.cli.app import WaitOpt, command_group
    from tether.core.harness.setup import ModelRequest
    from tether.core.hooks.fact_cues import collect_fact_cues
    from tether.core.host.calls import ordered_hookimpls

__getattr__, __dir__ = lazy_exports(__name__, globals())
