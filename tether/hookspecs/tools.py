"""What a tool is: the contract between the agent loop and tool plugins (``register_tools``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from tether.hookspecs.abort import AbortSignal


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


__all__ = ["FunctionTool", "Tool", "ToolContext", "ToolError", "ToolResult"]
