"""tether — a plugin-first agent harness with pi-compatible, tree-shaped session memory.

The public API is listed in ``__all__`` (guarded by a test); everything else is private.
Names are imported lazily so that ``import tether`` stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tether._lazy import lazy_exports

__version__ = "0.1.0"


if TYPE_CHECKING:  # the exports: what type checkers see, and what lazy_exports reads
    from tether.builtin_plugins.providers.models.registry import ProviderRegistry
    from tether.builtin_plugins.providers.numbers import warn_once
    from tether.builtin_plugins.storage.jsonl.files.lease import SessionLease
    from tether.core.agent.agent import Agent
    from tether.core.base.errors import (
        HookError,
        NoAgentError,
        SessionBusyError,
        SessionChangedError,
        SessionFileError,
        TetherError,
    )
    from tether.core.base.paths import tether_home
    from tether.core.base.settings import Settings, load_settings
    from tether.core.base.settings_peek import peek_setting
    from tether.core.context.build import (
        SessionContext,
        build_context_from_path,
        build_session_context,
    )
    from tether.core.context.convert import convert_to_llm
    from tether.core.harness.harness import Harness
    from tether.core.hooks.facade import Hooks
    from tether.core.host.manager import PluginError, PluginManager, create_plugin_manager
    from tether.core.memory.branching import navigate_tree
    from tether.core.memory.compaction import compact
    from tether.core.session.session import Session
    from tether.hookspecs import hookimpl, hookspec
    from tether.hookspecs.branch import BranchPreparation
    from tether.hookspecs.events import *  # noqa: F403 - its __all__, listed there
    from tether.hookspecs.gate import GateVerdict, SummaryAttempt, SummaryCheck, SummaryPlan
    from tether.hookspecs.model_registry import ModelRegistry
    from tether.hookspecs.pins import Pins
    from tether.hookspecs.prompt import PromptOptions, Section
    from tether.hookspecs.providers import Model, Provider, ProviderError
    from tether.hookspecs.session_protocol import HookSession
    from tether.hookspecs.store import SessionStore
    from tether.hookspecs.tools import FunctionTool, ToolContext, ToolResult
    from tether.rules import (
        FileOps,
        context_message,
        cut_problem,
        estimate_tokens,
        file_lists,
        file_operations,
        find_valid_cut_points,
        format_file_lists,
        is_cut_point,
        message_from_entry,
    )


__getattr__, __dir__ = lazy_exports(__name__, globals(), extra=("__version__",))
