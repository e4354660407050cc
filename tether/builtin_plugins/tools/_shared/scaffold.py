"""The scaffolding every built-in tool shares: its parameter schema and its registration."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from tether.tools import FunctionTool, ToolContext, ToolResult


def param(kind: str, description: str) -> dict[str, Any]:
    """One JSON-schema property: ``{"type": kind, "description": description}``."""
    return {"type": kind, "description": description}


def object_schema(
    properties: dict[str, Any],
    required: Sequence[str] = (),
    *,
    closed: bool = False,
) -> dict[str, Any]:
    """A JSON-schema object; ``required`` only when given, ``closed`` forbids other keys."""
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    if closed:
        schema["additionalProperties"] = False
    return schema


def builtin_tool(
    name: str,
    run: Callable[[str, dict[str, Any], ToolContext], ToolResult],
    description: str,
    parameters: dict[str, Any],
    snippet: str,
    guidelines: Sequence[str] = (),
    execution_mode: Literal["parallel", "sequential"] = "parallel",
) -> FunctionTool:
    """A built-in tool: labelled with its own name, with a one-line prompt snippet."""
    return FunctionTool(
        name=name,
        label=name,
        description=description,
        parameters=parameters,
        run=run,
        prompt_snippet=snippet,
        prompt_guidelines=list(guidelines),
        execution_mode=execution_mode,
    )
