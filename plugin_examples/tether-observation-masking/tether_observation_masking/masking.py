"""Observation masking as pure functions over a session branch (no hooks, no I/O).

A masking compaction keeps every entry of the context (its ``firstKeptEntryId`` is where the
context already starts) and records, in the entry's ``details``, the tool results older than
the kept window together with a one-line stub for each::

    "details": {"readFiles": [...], "modifiedFiles": [...],
                "strategy": "observation-masking",
                "maskedToolResults": {"<toolCallId>": "[read output masked: ...]", ...}}

The map is cumulative: each masking compaction carries the previous one's entries forward.
Its summary covers only what leaves the context — the masked outputs, with the calls that
produced them — folded into the previous summary.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tether import CompactionPreparation, NothingToCompact

STRATEGY = "observation-masking"
FIRST_LINE_CHARS = 100

Entry = dict[str, Any]
Message = dict[str, Any]
Count = Callable[[list[Message]], list[int]]


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return "".join(
        str(b.get("text", "")) for b in content if isinstance(b, dict) and b.get("type") == "text"
    )


def stub_for(result: Message) -> str:
    """One line standing in for a tool result's content."""
    text = _text(result.get("content"))
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if len(first) > FIRST_LINE_CHARS:
        first = first[:FIRST_LINE_CHARS] + "…"
    status = "error, " if result.get("isError") else ""
    return (
        f"[{result.get('toolName', 'tool')} output masked to save context "
        f"({status}{len(text)} chars); it began: {first or '(empty)'}]"
    )


def masks_of(compaction: Entry | None) -> dict[str, str]:
    """The ``toolCallId → stub`` map a masking compaction recorded (``{}`` for any other)."""
    details = (compaction or {}).get("details")
    if not isinstance(details, dict) or details.get("strategy") != STRATEGY:
        return {}
    masks = details.get("maskedToolResults")
    return dict(masks) if isinstance(masks, dict) else {}


def last_compaction(branch: Sequence[Entry]) -> tuple[int, Entry | None]:
    for index in range(len(branch) - 1, -1, -1):
        if branch[index].get("type") == "compaction":
            return index, branch[index]
    return -1, None


def mask_messages(messages: list[Message], masks: dict[str, str]) -> list[Message]:
    """``messages`` with every masked tool result's content replaced by its stub."""
    out = []
    for message in messages:
        stub = (
            masks.get(message.get("toolCallId", ""))
            if message.get("role") == "toolResult"
            else None
        )
        out.append(
            message if stub is None else {**message, "content": [{"type": "text", "text": stub}]}
        )
    return out


def _context_start(branch: Sequence[Entry], previous_index: int) -> int:
    """Where the current context starts: the previous compaction's first kept entry."""
    if previous_index < 0:
        return 0
    kept = branch[previous_index].get("firstKeptEntryId")
    for index, entry in enumerate(branch[:previous_index]):
        if entry.get("id") == kept:
            return index
    return previous_index + 1


def _window_start(branch: Sequence[Entry], start: int, keep_tokens: int, count: Count) -> int:
    """The first index of the kept window: the newest messages worth ``keep_tokens``."""
    rows = [i for i in range(start, len(branch)) if branch[i].get("type") == "message"]
    tokens = count([branch[i]["message"] for i in rows]) if rows else []
    total = 0
    for row, size in zip(reversed(rows), reversed(tokens), strict=True):
        total += size
        if total >= keep_tokens:
            return row
    return start


def _file_ops(messages: list[Message], previous: Entry | None) -> dict[str, list[str]]:
    ops: dict[str, dict[str, None]] = {"read": {}, "written": {}, "edited": {}}
    details = (previous or {}).get("details")
    if previous is not None and not previous.get("fromHook") and isinstance(details, dict):
        for path in details.get("readFiles") or []:
            ops["read"][path] = None
        for path in details.get("modifiedFiles") or []:
            ops["edited"][path] = None
    names = {"read": "read", "write": "written", "edit": "edited"}
    for message in messages:
        for block in message.get("content") or []:
            if isinstance(block, dict) and block.get("type") == "toolCall":
                path = (block.get("arguments") or {}).get("path")
                if block.get("name") in names and isinstance(path, str) and path:
                    ops[names[block["name"]]][path] = None
    return {kind: list(paths) for kind, paths in ops.items()}


def plan_masking(
    branch: Sequence[Entry],
    settings: Any,
    count: Count,
    tokens_before: int,
) -> CompactionPreparation | NothingToCompact:
    """The masking compaction of ``branch`` (root first), or why there is nothing to mask."""
    if branch and branch[-1].get("type") == "compaction":
        return NothingToCompact("Already compacted")
    previous_index, previous = last_compaction(branch)
    start = _context_start(branch, previous_index)
    window = _window_start(branch, start, settings.keep_recent_tokens, count)
    masks = masks_of(previous)
    calls: dict[str, Message] = {}
    summarize: list[Message] = []
    included: set[int] = set()
    summarized_ids: list[str] = []
    for entry in branch[start:window]:
        message = entry.get("message") if entry.get("type") == "message" else None
        if not isinstance(message, dict):
            continue
        if message.get("role") == "assistant":
            for block in message.get("content") or []:
                if isinstance(block, dict) and block.get("type") == "toolCall":
                    calls[str(block.get("id"))] = message
        call_id = message.get("toolCallId")
        if message.get("role") != "toolResult" or not call_id or call_id in masks:
            continue
        caller = calls.get(call_id)
        if caller is not None and id(caller) not in included:
            included.add(id(caller))
            summarize.append(caller)  # the call that produced the output, once
        summarize.append(message)
        summarized_ids.append(entry["id"])
        masks[call_id] = stub_for(message)
    if not summarized_ids:
        return NothingToCompact(
            "Nothing to mask: no tool output older than the kept window "
            f"({settings.keep_recent_tokens} tokens)"
        )
    return CompactionPreparation(
        first_kept_entry_id=branch[start]["id"],
        messages_to_summarize=summarize,
        turn_prefix_messages=[],
        is_split_turn=False,
        tokens_before=tokens_before,
        previous_summary=previous.get("summary") if previous else None,
        file_ops=_file_ops(summarize, previous),
        settings=settings,
        summarized_entry_ids=summarized_ids,
        strategy=STRATEGY,
        extra={"details": {"strategy": STRATEGY, "maskedToolResults": masks}},
    )


__all__ = [
    "STRATEGY",
    "last_compaction",
    "mask_messages",
    "masks_of",
    "plan_masking",
    "stub_for",
]
