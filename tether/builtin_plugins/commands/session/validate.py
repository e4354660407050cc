"""``tether session show --validate``: every entry against the format, plus warnings.

Schema problems name the line, the entry and the field. Warnings are values that pi reads and
tether copes with, so the file stays as it is: lone surrogates (sent and printed as U+FFFD)
and numbers that are not finite (``1e999``, ``NaN``: treated as absent).
"""

from __future__ import annotations

from typing import Any

SURROGATE = "lone surrogate in a string (pi writes these when it cuts text); sent as U+FFFD"


def _split(text: str) -> tuple[str, str]:
    field, _, message = text.partition(": ")
    return (field, message) if message else ("", text)


def _warnings(entry: Any) -> list[dict[str, Any]]:
    from tether.core.context.numbers import describe, non_finite_paths
    from tether.core.context.text_safety import surrogate_paths

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
    from tether.core.context.message_check import message_issues
    from tether.core.storage.schema import validate_entry

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
    return problems, warnings


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


__all__ = ["validation_findings", "validation_lines"]
