"""Text rendering for ``tether session show|tree`` and ``tether sessions`` (shared helpers)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tether.builtin_plugins.commands.session.tree_nodes import build_tree
from tether.memory import block_parts

PREVIEW = 72
TAIL = 2  # entries shown at the end of every linear run (tree), labels after a fold (show)
FOLD_MIN = 3  # fewer hidden entries than this are shown instead of folded
LABELS_FIRST = 3  # labels listed before a fold in `session show`


def _one_line(text: str, limit: int = PREVIEW) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _content_text(content: Any) -> str:
    """Text and tool-call names of a message for a tree line (thinking left out)."""
    return " ".join(
        block_parts(content, tool_call=lambda block: f"[{block.get('name')}]", thinking=False)
    )


def describe(entry: dict[str, Any]) -> str:
    """``type[:role]`` and a short preview of an entry."""
    kind = entry.get("type")
    if kind == "message":
        message = entry.get("message") if isinstance(entry.get("message"), dict) else {}
        role = message.get("role")
        if role == "bashExecution":
            text = f"$ {message.get('command', '')}"
        elif role == "toolResult":
            text = f"{message.get('toolName', '')}: {_content_text(message.get('content'))}"
        else:
            text = _content_text(message.get("content"))
        return f"{role}: {_one_line(text)}"
    if kind == "thinking_level_change":
        return f"thinking → {entry.get('thinkingLevel')}"
    if kind == "model_change":
        return f"model → {entry.get('provider')}/{entry.get('modelId')}"
    if kind in ("compaction", "branch_summary"):
        return f"{kind}: {_one_line(str(entry.get('summary', '')))}"
    if kind == "custom":
        return f"custom {entry.get('customType')}"
    if kind == "custom_message":
        preview = _one_line(_content_text(entry.get("content")))
        return f"custom_message {entry.get('customType')}: {preview}"
    if kind == "label":
        return f"label {entry.get('targetId')} = {entry.get('label')!r}"
    if kind == "session_info":
        return f"name = {entry.get('name')!r}"
    return f"{kind} (unknown type)"


def _store_label(session: Any) -> str | None:
    """A database session's store URI with its id, the password left out."""
    uri = getattr(session.store, "uri", None)
    if uri is None:
        return None
    from tether.storage import uri_without_password

    return uri_without_password(str(uri))


def show_summary(session: Any) -> dict[str, Any]:
    """The facts ``tether session show`` prints (JSON shape)."""
    table = session.table
    types = Counter(table.types)
    roles = Counter(table.role(row) for row, kind in enumerate(table.types) if kind == "message")
    return {
        "file": str(session.file) if session.file else _store_label(session),
        "header": session.header,
        "versionOnDisk": session.version_on_disk,
        "sessionId": session.session_id,
        "cwd": session.cwd,
        "sessionName": session.session_name,
        "entryCount": len(table),
        "types": dict(sorted(types.items())),
        "roles": dict(sorted((str(k), v) for k, v in roles.items())),
        "leafId": session.leaf_id,
        "branchLength": len(session.branch_ids()),
        "roots": sum(1 for _ in build_tree(session)),
        "labels": session.labels(),
        "problems": [
            {"line": p.line, "kind": p.kind, "message": p.message} for p in session.problems
        ],
        "notes": list(session.notes),
    }


def show_text(summary: dict[str, Any]) -> list[str]:
    version = summary["versionOnDisk"]  # None: the store did not say
    on_disk = "format version not reported" if version is None else f"format v{version:g} on disk"
    lines = [
        f"file:      {summary['file']}",
        f"session:   {summary['sessionId']}  ({on_disk})",
        f"cwd:       {summary['cwd']}",
        f"name:      {summary['sessionName'] or '-'}",
        f"entries:   {summary['entryCount']}  ({summary['roots']} root(s))",
        "types:     " + ", ".join(f"{k} {v}" for k, v in summary["types"].items()),
        "messages:  " + (", ".join(f"{k} {v}" for k, v in summary["roles"].items()) or "-"),
        f"leaf:      {summary['leafId'] or '-'}  (branch of {summary['branchLength']} entries)",
    ]
    lines.extend(label_lines(summary["labels"]))
    for note in summary["notes"]:
        lines.append(f"note:      {note}")
    count = problem_count(summary)
    warnings = len(summary.get("warnings", []))
    if count:  # with --validate the entries' format problems follow these lines
        lines.append(f"problems:  {count}")
        lines.extend(f"  line {p['line']}: {p['message']}" for p in summary["problems"])
    elif warnings:  # never "none" above a list: the warnings follow these lines
        lines.append(f"problems:  0; warnings: {warnings} (values tether reads and copes with)")
    else:
        lines.append("problems:  none")
    return lines


def label_lines(labels: dict[str, str], width: int = 100) -> list[str]:
    """``labels: id=label, …`` on one line if it fits in ``width``; else one label a line,
    a long list folded as ``session tree`` folds a run: the first ones, ``… N labels …``, the
    last ones (``--json`` has them all)."""
    items = [f"{k}={_one_line(str(v), width)}" for k, v in labels.items()]
    inline = "labels:    " + ", ".join(items)
    if not items or len(inline) <= width:
        return [inline] if items else []
    shown = [f"  {item}" for item in items]
    hidden = len(items) - LABELS_FIRST - TAIL
    if hidden >= FOLD_MIN:
        fold = f"  … {hidden} labels (--json lists all) …"
        shown = [*shown[:LABELS_FIRST], fold, *shown[-TAIL:]]
    return [f"labels:    {len(items)}", *shown]


def problem_count(summary: dict[str, Any]) -> int:
    """Damaged or duplicate lines plus (with ``--validate``) entries that break the format."""
    return len(summary["problems"]) + len(summary.get("schemaProblems", []))


__all__ = ["describe", "label_lines", "problem_count", "show_summary", "show_text"]
