"""tether — a plugin-first agent harness with pi-compatible, tree-shaped session memory.

The public API is listed in ``__all__`` (guarded by a test); everything else is private.
Names are imported lazily so that ``import tether`` stays cheap.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    # plugins
    "hookimpl": "tether.hookspecs",
    "hookspec": "tether.hookspecs",
    "create_plugin_manager": "tether.core.host.manager",
    "PluginManager": "tether.core.host.manager",
    "PluginError": "tether.core.host.manager",
    "Hooks": "tether.core.host.facade",
    # errors
    "TetherError": "tether.core.host.errors",
    "SessionFileError": "tether.core.host.errors",
    "SessionBusyError": "tether.core.host.errors",
    "SessionChangedError": "tether.core.host.errors",
    # sessions and context
    "Session": "tether.core.session.session",
    "SessionLease": "tether.core.storage.lease",
    "SessionContext": "tether.core.context.build",
    "build_session_context": "tether.core.context.build",
    "build_context_from_path": "tether.core.context.build",
    "convert_to_llm": "tether.core.context.build",
    "load_settings": "tether.core.host.settings",
    "Settings": "tether.core.host.settings",
    # the agent
    "Harness": "tether.core.harness.harness",
    "Agent": "tether.core.agent.agent",
    "ProviderRegistry": "tether.core.agent.provider_registry",
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
    "SessionStore": "tether.core.storage.protocol",
    "PromptOptions": "tether.core.agent.prompt",
    # what hooks receive and return (tether.hookspecs.events, the session protocol)
    "HookSession": "tether.hookspecs.session_protocol",
    "NoAgentError": "tether.core.host.errors",
    "HookError": "tether.core.host.errors",
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
}

__all__ = ["__version__", *sorted(_EXPORTS)]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'tether' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
