"""Which entries of a branch a compaction replaced, the text of each, and the note that
names that span in the summary sent to the model while the ``recall`` tool is offered
(:class:`SpanNote`, the tool's ``annotate_context``).

The note is added only to what is sent (never to stored entries), so pi opens the file with
the same context."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from tether.builtin_plugins.memory.content_parts import block_parts


@dataclass
class Replaced:
    """The latest compaction on a branch and the entries before its first kept entry."""

    compaction_id: str
    entries: list[dict[str, Any]]

    def span(self) -> str:
        """``<first id> … <last id>`` (or ``(none)``)."""
        if not self.entries:
            return "(none)"
        return f"{self.entries[0].get('id')} … {self.entries[-1].get('id')}"


def replaced_entries(branch: list[dict[str, Any]]) -> Replaced | None:
    """The entries the latest compaction on ``branch`` replaced (``None``: no compaction).

    Everything on the branch before the latest compaction's ``firstKeptEntryId`` is replaced;
    if that id is not on the branch before the compaction, everything before it is."""
    last = None
    for index, entry in enumerate(branch):
        if entry.get("type") == "compaction":
            last = index
    if last is None:
        return None
    first_kept = branch[last].get("firstKeptEntryId")
    cut = next((i for i in range(last) if branch[i].get("id") == first_kept), last)
    texts = [entry for entry in branch[:cut] if entry_text(entry)[1]]
    return Replaced(str(branch[last].get("id")), texts)


def replaced_note(branch: list[dict[str, Any]]) -> str | None:
    """The line that names what the latest compaction on ``branch`` replaced (``None``: no
    compaction, or nothing with text before its first kept entry)."""
    replaced = replaced_entries(branch)
    if replaced is None or not replaced.entries:
        return None
    return (
        f"\n\n(Entries {replaced.span()} ({len(replaced.entries)} entries) were "
        "replaced by this summary; the recall tool can search and read them.)"
    )


def summary_message(messages: list[Any]) -> dict[str, Any] | None:
    """The context's compaction summary message, if it has one."""
    for message in messages:
        if isinstance(message, dict) and message.get("role") == "compactionSummary":
            return message
    return None


def with_note(messages: list[Any], note: str | None) -> list[Any]:
    """``messages`` with ``note`` appended to the compaction summary (a copy; unchanged
    without a note or a summary message)."""
    if not note:
        return messages
    for index, message in enumerate(messages):
        if isinstance(message, dict) and message.get("role") == "compactionSummary":
            summary = str(message.get("summary", ""))
            return [
                *messages[:index],
                {**message, "summary": summary + note},
                *messages[index + 1 :],
            ]
    return messages


def with_replaced_note(messages: list[Any], branch: list[dict[str, Any]]) -> list[Any]:
    """``messages`` with a line appended to the compaction summary naming the replaced span
    (unchanged when the branch has no compaction or the context no summary message)."""
    if summary_message(messages) is None:
        return messages
    return with_note(messages, replaced_note(branch))


class SpanNote:
    """The recall tool's ``annotate_context``: the compaction summary sent names the span the
    tool can read. The note is worked out once per compaction of a session file."""

    def __init__(self) -> None:
        self._last: tuple[Any, str | None] = (None, None)  # (file and summary, note)

    def __call__(self, messages: list[Any], session: Any) -> list[Any]:
        summary = summary_message(messages)
        if summary is None:
            return messages
        key = (session.file, summary.get("timestamp"), str(summary.get("summary", "")))
        if self._last[0] != key:
            self._last = (key, replaced_note(session.get_branch()))
        return with_note(messages, self._last[1])


def _blocks_text(content: Any) -> str:
    return "\n".join(block_parts(content, tool_call=_tool_call))


def _tool_call(block: dict[str, Any]) -> str:
    args = json.dumps(block.get("arguments"), ensure_ascii=False)
    return f"[tool call {block.get('name')}] {args}"


def entry_text(entry: dict[str, Any]) -> tuple[str, str]:
    """``(role, text)`` of an entry; the text is empty for entries without any (e.g. a
    model change)."""
    kind = entry.get("type")
    if kind == "message":
        message = entry.get("message") or {}
        role = str(message.get("role", "message"))
        if role == "bashExecution":
            text = f"$ {message.get('command', '')}\n{message.get('output', '')}"
            return role, text
        if role in ("branchSummary", "compactionSummary"):
            return role, str(message.get("summary", ""))
        text = _blocks_text(message.get("content"))
        if role == "toolResult":
            role = f"toolResult ({message.get('toolName', '?')})"
        return role, text
    if kind == "custom_message":
        return f"custom ({entry.get('customType', '?')})", _blocks_text(entry.get("content"))
    if kind in ("compaction", "branch_summary"):
        return kind, str(entry.get("summary", ""))
    return str(kind), ""
