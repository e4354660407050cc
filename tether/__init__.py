"""tether — a plugin-first agent harness with pi-compatible, tree-shaped session memory.

The public API is listed in ``__all__`` (guarded by a test); everything else is private.
Names are imported lazily so that ``import tether`` stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tether._lazy import lazy_exports

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    # plugins
    "hookimpl": "tether.hookspecs",
    "hookspec": "tether.hookspecs",
    "create_plugin_manager": "tether.core.host.manager",
    "PluginManager": "tether.core.host.manager",
    "PluginError": "tether.core.host.manager",
    "Hooks": "tether.core.hooks.facade",
    # errors
    "TetherError": "tether.core.base.errors",
    "SessionFileError": "tether.core.base.errors",
    "SessionBusyError": "tether.core.base.errors",
    "SessionChangedError": "tether.core.base.errors",
    # sessions and context
    "Session": "tether.core.session.session",
    "SessionLease": "tether.builtin_plugins.storage.jsonl.files.lease",
    "SessionContext": "tether.core.context.build",
    "build_session_context": "tether.core.context.build",
    "build_context_from_path": "tether.core.context.build",
    "convert_to_llm": "tether.core.context.build",
    "load_settings": "tether.core.base.settings",
    "peek_setting": "tether.core.base.settings_peek",
    "tether_home": "tether.core.base.paths",
    "warn_once": "tether.builtin_plugins.providers.numbers",
    "Settings": "tether.core.base.settings",
    # the agent
    "Harness": "tether.core.harness.harness",
    "Agent": "tether.core.agent.agent",
    "ProviderRegistry": "tether.builtin_plugins.providers.models.registry",
    "Model": "tether.core.agent.providers",
    "ProviderError": "tether.core.agent.providers",
    # memory
    "compact": "tether.core.memory.compaction",
    "navigate_tree": "tether.core.memory.branching",
    # what plugins build and return
    "FunctionTool": "tether.core.agent.tools",
    "ToolResult": "tether.core.agent.tools",
    "ToolContext": "tether.core.agent.tools",
    "Section": "tether.core.agent.prompt",
    "Provider": "tether.core.agent.providers",
    "ModelRegistry": "tether.hookspecs.model_registry",
    "SessionStore": "tether.core.storage.protocol",
    "PromptOptions": "tether.core.agent.prompt",
    # what hooks receive and return (tether.hookspecs.events, the session protocol)
    "HookSession": "tether.hookspecs.session_protocol",
    "NoAgentError": "tether.core.base.errors",
    "HookError": "tether.core.base.errors",
    "Message": "tether.hookspecs.events",
    "Entry": "tether.hookspecs.events",
    "InputEvent": "tether.hookspecs.events",
    "BeforeAgentStartEvent": "tether.hookspecs.events",
    "ContextEvent": "tether.hookspecs.events",
    "PruneEvent": "tether.hookspecs.events",
    "PrunedContext": "tether.hookspecs.events",
    "BeforeToolCallEvent": "tether.hookspecs.events",
    "ToolResultEvent": "tether.hookspecs.events",
    "AgentEvent": "tether.hookspecs.events",
    "BeforeCompactEvent": "tether.hookspecs.events",
    "CompactEvent": "tether.hookspecs.events",
    "CompactionSettings": "tether.hookspecs.events",
    "BeforeTreeEvent": "tether.hookspecs.events",
    "TreeEvent": "tether.hookspecs.events",
    "BeforeForkEvent": "tether.hookspecs.events",
    "Block": "tether.hookspecs.events",
    "Cancel": "tether.hookspecs.events",
    "CustomCompaction": "tether.hookspecs.events",
    "CustomBranchSummary": "tether.hookspecs.events",
    "CompactionPreparation": "tether.hookspecs.events",
    "NothingToCompact": "tether.hookspecs.events",
    "PrepareRequest": "tether.hookspecs.events",
    "SummarizeRequest": "tether.hookspecs.events",
    "Summary": "tether.hookspecs.events",
    "RetryDecision": "tether.hookspecs.events",
    "SummaryCheck": "tether.hookspecs.gate",
    "SummaryAttempt": "tether.hookspecs.gate",
    "GateVerdict": "tether.hookspecs.gate",
    # pi's rules for strategies (tether.rules)
    "message_from_entry": "tether.rules",
    "context_message": "tether.rules",
    "FileOps": "tether.rules",
    "file_operations": "tether.rules",
    "file_lists": "tether.rules",
    "format_file_lists": "tether.rules",
    "estimate_tokens": "tether.rules",
    "is_cut_point": "tether.rules",
    "find_valid_cut_points": "tether.rules",
    "cut_problem": "tether.rules",
}

__all__ = ["__version__", *sorted(_EXPORTS)]

if TYPE_CHECKING:  # what type checkers and IDEs see; at run time __getattr__ imports lazily
    from tether.builtin_plugins.providers.models.registry import ProviderRegistry
    from tether.builtin_plugins.providers.numbers import warn_once
    from tether.builtin_plugins.storage.jsonl.files.lease import SessionLease
    from tether.core.agent.agent import Agent
    from tether.core.agent.prompt import PromptOptions, Section
    from tether.core.agent.providers import Model, Provider, ProviderError
    from tether.core.agent.tools import FunctionTool, ToolContext, ToolResult
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
        convert_to_llm,
    )
    from tether.core.harness.harness import Harness
    from tether.core.hooks.facade import Hooks
    from tether.core.host.manager import PluginError, PluginManager, create_plugin_manager
    from tether.core.memory.branching import navigate_tree
    from tether.core.memory.compaction import compact
    from tether.core.session.session import Session
    from tether.core.storage.protocol import SessionStore
    from tether.hookspecs import hookimpl, hookspec
    from tether.hookspecs.events import (
        AgentEvent,
        BeforeAgentStartEvent,
        BeforeCompactEvent,
        BeforeForkEvent,
        BeforeToolCallEvent,
        BeforeTreeEvent,
        Block,
        Cancel,
        CompactEvent,
        CompactionPreparation,
        CompactionSettings,
        ContextEvent,
        CustomBranchSummary,
        CustomCompaction,
        Entry,
        InputEvent,
        Message,
        NothingToCompact,
        PrepareRequest,
        PrunedContext,
        PruneEvent,
        RetryDecision,
        SummarizeRequest,
        Summary,
        ToolResultEvent,
        TreeEvent,
    )
    from tether.hookspecs.gate import GateVerdict, SummaryAttempt, SummaryCheck
    from tether.hookspecs.model_registry import ModelRegistry
    from tether.hookspecs.session_protocol import HookSession
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


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
