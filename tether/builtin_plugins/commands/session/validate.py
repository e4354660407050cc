"""``tether session show --validate``: every entry against the format, plus warnings.

Schema problems name the line, the entry and the field. Warnings are values that pi reads and
tether copes with, so the file stays as it is: lone surrogates (sent and printed as U+FFFD),
numbers that are not finite (``1e999``, ``NaN``: treated as absent), and tool calls on the
current branch left without a result. Those are warnings, not problems, wherever they stand:
pi's own files hold them (a turn aborted or steered mid-tool, a process ended or a store lost
between a call and its result), and pi and tether send an error result ``No result provided``
in their place. The warning says which case it is: followed by later messages, or the end of
the branch (the last turn stopped before its result was stored).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")
SURROGATE = "lone surrogate in a string (pi writes these when it cuts text); sent as U+FFFD"


def _split(text: str) -> tuple[str, str]:
    field, _, message = text.partition(": ")
    return (field, message) if message else ("", text)


def _warnings(entry: Any) -> list[dict[str, Any]]:
    from tether.builtin_plugins.context_check import non_finite_paths
    from tether.builtin_plugins.providers.numbers import describe

    out = [
        {"kind": "lone-surrogate", "field": path, "message": SURROGATE}
        for path in surrogate_paths(entry)
    ]
    out += [
        {
            "kind": "non-finite",
            "field": path,
            "message": f"not a finite number ({describe(value)}); treated as absent",
        }
        for path, value in non_finite_paths(entry)
    ]
    return out


def _schema(entry: Any, warned: set[str]) -> list[dict[str, str]]:
    from tether.builtin_plugins.storage.format.schema import validate_entry
    from tether.rules import message_issues

    message = entry.get("message") if isinstance(entry, dict) else None
    if entry.get("type") == "message" and isinstance(message, dict):
        issues = message_issues(message)
        if issues:  # clearer than pydantic's union errors, and says what a request does
            return [{"field": field, "message": text} for field, text in issues]
    try:
        validate_entry(entry)
    except ValueError as exc:
        field, text = _split(str(exc))
        if field not in warned:
            return [{"field": field, "message": text}]
    return []


def validation_findings(session: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``(schemaProblems, warnings)`` of every entry, each with ``line`` and ``id``."""
    problems: list[dict[str, Any]] = []
    warnings: list[dict[str, Any]] = []
    table = session.table
    for row in range(len(table)):
        entry = table.entry(row)
        where = {"line": table.linenos[row], "id": table.ids[row]}
        found = _warnings(entry)
        warnings += [{**where, **item} for item in found]
        warned = {item["field"] for item in found}
        problems += [{**where, **item} for item in _schema(entry, warned)]
    warnings += dangling_tool_calls(session)
    warnings.sort(key=lambda item: item["line"])
    problems += compaction_cuts(session)
    problems.sort(key=lambda item: item["line"])
    return problems, warnings


def compaction_cuts(session: Any) -> list[dict[str, Any]]:
    """Problems for the compactions whose ``firstKeptEntryId`` is not an entry before them on
    their own branch, or is a tool result (the context would hold only the summary, or a
    result without its call)."""
    from tether import cut_problem

    table = session.table
    found: list[dict[str, Any]] = []
    for row in range(len(table)):
        if table.types[row] != "compaction":
            continue
        entry = table.entry(row)
        path = session.get_branch(table.ids[row])[:-1]  # its ancestors, root first
        problem = cut_problem(path, entry.get("firstKeptEntryId"))
        if problem is not None:
            where = {"line": table.linenos[row], "id": table.ids[row]}
            found.append({**where, "kind": "compaction-cut", "field": "firstKeptEntryId",
                          "message": problem})  # fmt: skip
    return found


# entries the model sees as a user turn: a tool call before one is answered or never will be
_TURNS = frozenset({"custom_message", "compaction", "branch_summary"})
FOLLOWED = "before the next message; it is sent as an error result 'No result provided'"
AT_THE_END = (
    "and the branch ends here: the turn stopped before its result was stored; the next "
    "prompt sends an error result 'No result provided' in its place"
)


def dangling_tool_calls(session: Any) -> list[dict[str, Any]]:
    """Warnings for the tool calls on the current branch with no result (see the module
    docstring); an assistant message that ended in ``error``/``aborted`` is never sent, so
    its calls are not counted."""
    table = session.table
    found: list[dict[str, Any]] = []
    pending: list[tuple[dict[str, Any], int, Any]] = []  # (where, index in content, block)
    answered: set[Any] = set()

    def close(ending: str) -> None:
        for where, index, call in pending:
            if call.get("id") not in answered:
                text = f"tool call {call.get('id')} ({call.get('name')}) has no result {ending}"
                field = f"message.content[{index}]"
                found.append(
                    {**where, "kind": "dangling-tool-call", "field": field, "message": text}
                )
        pending.clear()
        answered.clear()

    for entry in session.get_branch():
        kind = entry.get("type")
        message = entry.get("message") if kind == "message" else None
        message = message if isinstance(message, dict) else {}
        role = message.get("role")
        if role == "toolResult":
            answered.add(message.get("toolCallId"))
            continue
        if role is None and kind not in _TURNS:
            continue  # labels, settings, custom data: not part of the conversation
        close(FOLLOWED)
        if role != "assistant" or message.get("stopReason") in ("error", "aborted"):
            continue
        row = table.by_id.get(entry.get("id"))
        where = {"line": table.linenos[row] if row is not None else 0, "id": entry.get("id")}
        content = message.get("content")
        for index, block in enumerate(content if isinstance(content, list) else []):
            if isinstance(block, dict) and block.get("type") == "toolCall":
                pending.append((where, index, block))
    close(AT_THE_END)
    return found


def validation_lines(path: Any, summary: dict[str, Any]) -> list[str]:
    """Text lines: ``FILE:LINE: entry ID: FIELD: problem`` (warnings prefixed ``warning:``)."""
    out = []
    for item in summary.get("schemaProblems", []):
        out.append(f"{path}:{item['line']}: entry {item['id']}: {_field(item)}{item['message']}")
    for item in summary.get("warnings", []):
        out.append(
            f"warning: {path}:{item['line']}: entry {item['id']}: {_field(item)}{item['message']}"
        )
    return out


def _field(item: dict[str, Any]) -> str:
    return f"{item['field']}: " if item.get("field") else ""


def surrogate_paths(value: Any, path: str = "") -> Iterator[str]:
    """Field paths (``message.content[0].text``) of the strings in ``value`` with a surrogate;
    keys holding one are reported too."""
    if isinstance(value, str):
        if _SURROGATE.search(value) is not None:
            yield path or "(value)"
    elif isinstance(value, dict):
        for key, item in value.items():
            child = f"{path}.{key}" if path else str(key)
            if isinstance(key, str) and _SURROGATE.search(key) is not None:
                yield child
            yield from surrogate_paths(item, child)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from surrogate_paths(item, f"{path}[{index}]")


__all__ = ["compaction_cuts", "dangling_tool_calls", "validation_findings", "validation_lines"]
