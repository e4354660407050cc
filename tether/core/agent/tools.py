"""What a tool is: the contract between the agent loop and tool plugins (``register_tools``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from tether.core.agent.abort import AbortSignal
from tether.core.hooks.facade import Hooks

if TYPE_CHECKING:
    import pluggy

#: pi's order of its built-in tools; ``order_tools`` lists these first, others after.
BUILTIN_TOOL_ORDER: tuple[str, ...] = ("read", "bash", "edit", "write", "grep", "find", "ls")


@dataclass
class ToolResult:
    """A tool's answer. ``content`` are text/image blocks sent to the model; ``details`` stay
    in the session for UIs (pi's ``details``); ``terminate`` ends the run after this batch."""

    content: list[dict[str, Any]]
    details: Any = None
    is_error: bool = False
    terminate: bool = False

    @classmethod
    def text(cls, text: str, *, details: Any = None, is_error: bool = False) -> ToolResult:
        return cls([{"type": "text", "text": text}], details=details, is_error=is_error)


class ToolError(Exception):
    """Raised by a tool for a failure the model should read (becomes an error tool result)."""


@dataclass
class ToolContext:
    """What a running tool may use: the project directory, the abort signal, progress updates.

    ``session`` is the running agent's :class:`tether.HookSession` (``None`` outside a
    harness); tools only read it, e.g. ``ctx.session.get_branch()`` for the current branch
    (the ``recall`` tool searches the entries a compaction replaced)."""

    cwd: str
    signal: AbortSignal = field(default_factory=AbortSignal)
    on_update: Callable[[ToolResult], None] | None = None
    settings: Any = None
    session: Any = None


class Tool(Protocol):
    name: str
    label: str
    description: str
    parameters: dict[str, Any]  # JSON schema of the arguments
    prompt_snippet: str | None  # one line for the system prompt's tool list
    prompt_guidelines: list[str]  # bullet points for the system prompt's guidelines
    execution_mode: Literal["parallel", "sequential"]

    def execute(self, tool_call_id: str, args: dict[str, Any], ctx: ToolContext) -> ToolResult: ...


@dataclass
class FunctionTool:
    """A :class:`Tool` built from a function: the usual way plugins define tools.

    ``annotate_context(messages, session) -> messages``, when set, may change the messages
    *sent* while the tool is offered (never the stored entries): e.g. the ``recall`` tool
    names, in the compaction summary, the span of entries it can read. It gets the context
    after the ``context`` hooks and returns a list (the same one when nothing changes)."""

    name: str
    description: str
    parameters: dict[str, Any]
    run: Callable[[str, dict[str, Any], ToolContext], ToolResult]
    label: str = ""
    prompt_snippet: str | None = None
    prompt_guidelines: list[str] = field(default_factory=list)
    execution_mode: Literal["parallel", "sequential"] = "parallel"
    annotate_context: Callable[[list[dict[str, Any]], Any], list[dict[str, Any]]] | None = None

    def execute(self, tool_call_id: str, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        return self.run(tool_call_id, args, ctx)


def collect_tools(
    pm: pluggy.PluginManager, *, origins: dict[str, str] | None = None
) -> dict[str, Tool]:
    """Every tool contributed through ``register_tools``, by name.

    Implementations run in registration order (built-ins first, then third-party plugins),
    so a later registration of a name replaces the earlier one and keeps its position.
    A plugin whose ``register_tools`` raises is named in a warning and none of its tools count.
    ``origins``, when given, is filled with ``tool name -> plugin name``.
    """
    staging = _ToolRegistration()
    Hooks(pm).register_tools(staging)
    if origins is not None:
        origins.update(staging.origins)
    return staging.tools


class _ToolRegistration:
    """Collects one plugin's tools apart until its ``register_tools`` has returned."""

    def __init__(self) -> None:
        self.tools: dict[str, Tool] = {}
        self.origins: dict[str, str] = {}
        self.pending: list[Any] = []

    def arguments(self, plugin: str) -> dict[str, Any]:
        self.pending = []

        def register(tool: Any) -> None:
            name = getattr(tool, "name", None)
            if not isinstance(name, str) or not name:
                raise TypeError(f"plugin '{plugin}' registered a tool without a name: {tool!r}")
            self.pending.append(tool)

        return {"register": register}

    def keep(self, plugin: str) -> None:
        for tool in self.pending:
            self.tools[tool.name] = tool
            self.origins[tool.name] = plugin

    def drop(self, plugin: str) -> None:
        self.pending = []


def order_tools(tools: dict[str, Tool]) -> list[Tool]:
    """Tools in :data:`BUILTIN_TOOL_ORDER` first, then the others in registration order."""
    rank = {name: i for i, name in enumerate(BUILTIN_TOOL_ORDER)}
    position = {name: i for i, name in enumerate(tools)}
    names = sorted(tools, key=lambda n: (rank.get(n, len(rank)), position[n]))
    return [tools[name] for name in names]


def annotated(tools: list[Tool], messages: list[Any], session: Any) -> list[Any]:
    """``messages`` as the offered ``tools`` annotate them (see ``FunctionTool``), in order."""
    for tool in tools:
        annotate = getattr(tool, "annotate_context", None)
        if annotate is not None:
            messages = annotate(messages, session)
    return messages


def error_result(message: str, details: Any = None) -> ToolResult:
    """pi's error result: one text block, ``is_error``; ``details`` default to ``{}``."""
    return ToolResult.text(message, details={} if details is None else details, is_error=True)


__all__ = [
    "BUILTIN_TOOL_ORDER",
    "FunctionTool",
    "Tool",
    "ToolContext",
    "ToolError",
    "ToolResult",
    "collect_tools",
    "error_result",
    "order_tools",
]
