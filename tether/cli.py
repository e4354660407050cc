"""The public toolkit for command plugins: the sub-command groups of ``tether``, shared
options, settings read without loading plugins, errors that end a command with one line, and
what starting an agent or printing its prompt takes. See docs/plugins.md ("Command plugins").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tether._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "command_group": "tether.core.cli.app",
    "WaitOpt": "tether.core.cli.app",
    "UsageError": "tether.core.base.errors",
    "HookInterrupted": "tether.core.base.errors",
    "SessionWriteError": "tether.core.base.errors",
    "LazySettings": "tether.core.base.settings_peek",
    "peek_section": "tether.core.base.settings_peek",
    "json_text": "tether.builtin_plugins.providers.numbers",
    "ModelRequest": "tether.core.harness.setup",
    "assemble_system_prompt": "tether.core.agent.prompt",
    "build_prompt_options": "tether.core.agent.prompt",
    "collect_fact_cues": "tether.core.hooks.fact_cues",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:  # what type checkers see; at run time __getattr__ imports lazily
    from tether.builtin_plugins.providers.numbers import json_text
    from tether.core.agent.prompt import assemble_system_prompt, build_prompt_options
    from tether.core.base.errors import HookInterrupted, SessionWriteError, UsageError
    from tether.core.base.settings_peek import LazySettings, peek_section
    from tether.core.cli.app import WaitOpt, command_group
    from tether.core.harness.setup import ModelRequest
    from tether.core.hooks.fact_cues import collect_fact_cues

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
