"""Tree navigation with an optional branch summary (pi's ``navigateTree``), through hooks.

:func:`navigate_tree` moves the session's leaf to an entry. The entries abandoned on the way
(from the old leaf back to the common ancestor with the target) can be summarized: the
``summarize`` hook gets them as messages with ``kind="branch"``, and the summary becomes a
``branch_summary`` entry placed exactly where pi places it — a child of the new position
(the target, or the parent of a target user message), followed by the label if one was given.

Budgeting is the summarizer's business: the kernel hands over every abandoned message (pi's
mapping: tool results left out, compactions as their summaries) and the summarizer fits them
into its model's window (the built-in LLM summarizer folds them in chunks, design §8.11), so
the file lists cover the whole abandoned branch. ``details`` also names the abandoned leaf.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from tether.core.compaction import (
    Progress,
    request_summary,
    summary_request_base,
    unsaved_warning,
)
from tether.core.context import (
    branch_summary_message,
    compaction_summary_message,
    custom_message_from_entry,
)
from tether.core.errors import TetherError
from tether.core.file_tracking import (
    add_details_file_ops,
    add_message_file_ops,
    empty_file_ops,
    file_lists,
    format_file_lists,
)
from tether.core.hook_calls import SessionView, call_hook, notify_hook
from tether.hookspecs.events import (
    BeforeTreeEvent,
    Cancel,
    CustomBranchSummary,
    Entry,
    SummarizeRequest,
    TreeEvent,
)

BRANCH_SUMMARY_MAX_TOKENS = 2048  # pi's output budget for a branch summary
NO_CONTENT = "No content to summarize"
BRANCH_PREAMBLE = (
    "The user worked on another branch of this conversation, then came back to this point.\n"
    "What happened on that branch:\n\n"
)


@dataclass
class TreeOutcome:
    """What :func:`navigate_tree` did.

    ``status``: ``moved``, ``noop`` (the target is the current leaf) or ``cancelled`` (a
    plugin's ``Cancel``; ``reason`` says why). ``editor_text`` is the text of a target user
    message (pi puts it back in the editor). ``summary_entry`` is the written
    ``branch_summary``, ``label_entry`` the label entry, if any.
    """

    status: Literal["moved", "noop", "cancelled"]
    old_leaf_id: str | None
    new_leaf_id: str | None = None
    common_ancestor_id: str | None = None
    abandoned_entry_ids: list[str] = field(default_factory=list)
    summary_entry: Entry | None = None
    label_entry: Entry | None = None
    editor_text: str | None = None
    summarizer: str = ""
    from_hook: bool = False
    reason: str = ""
    warnings: list[str] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# Pure helpers: the abandoned entries and what they say
# ---------------------------------------------------------------------------------------------


def _ids_to_root(get_entry: Callable[[str], Entry | None], leaf_id: str | None) -> list[str]:
    """Ids from ``leaf_id`` up to its root, leaf first (stops at a missing parent or a cycle)."""
    ids: list[str] = []
    seen: set[str] = set()
    current = leaf_id
    while current and current not in seen:
        entry = get_entry(current)
        if entry is None:
            break
        seen.add(current)
        ids.append(current)
        current = entry.get("parentId")
    return ids


def collect_abandoned_entries(
    get_entry: Callable[[str], Entry | None], old_leaf_id: str | None, target_id: str
) -> tuple[list[Entry], str | None]:
    """pi's ``collectEntriesForBranchSummary``: ``(entries, common_ancestor_id)``.

    The entries run from just below the deepest common ancestor of the old leaf and the
    target down to the old leaf, chronologically; compactions on the way are included.
    """
    if not old_leaf_id:
        return [], None
    old_path = _ids_to_root(get_entry, old_leaf_id)
    on_old_path = set(old_path)
    ancestor = next((i for i in _ids_to_root(get_entry, target_id) if i in on_old_path), None)
    abandoned: list[Entry] = []
    for entry_id in old_path:
        if entry_id == ancestor:
            break
        abandoned.append(get_entry(entry_id))  # type: ignore[arg-type]
    abandoned.reverse()
    return abandoned, ancestor


def branch_message(entry: Entry) -> dict[str, Any] | None:
    """The message an abandoned entry contributes to its summary (tool results: none, as pi)."""
    kind = entry.get("type")
    if kind == "message":
        message = entry.get("message")
        if isinstance(message, dict) and message.get("role") != "toolResult":
            return message
        return None
    if kind == "custom_message":
        return custom_message_from_entry(entry)
    if kind == "branch_summary":
        return branch_summary_message(entry)
    if kind == "compaction":
        return compaction_summary_message(entry)
    return None


def branch_file_lists(
    entries: list[Entry], messages: list[dict[str, Any]]
) -> tuple[list[str], list[str]]:
    """Files read/modified on the abandoned branch, earlier branch summaries' lists included."""
    ops = empty_file_ops()
    for entry in entries:
        if entry.get("type") == "branch_summary" and not entry.get("fromHook"):
            add_details_file_ops(ops, entry.get("details"))
    for message in messages:
        add_message_file_ops(ops, message)
    return file_lists(ops)


def new_leaf_for(target: Entry) -> tuple[str | None, str | None]:
    """``(new leaf id, editor text)``: a user or custom message target is re-opened for editing
    (the leaf goes to its parent); any other target becomes the leaf itself."""
    kind = target.get("type")
    message = target.get("message") if kind == "message" else None
    if isinstance(message, dict) and message.get("role") == "user":
        return target.get("parentId"), _text_of(message.get("content"))
    if kind == "custom_message":
        return target.get("parentId"), _text_of(target.get("content"))
    return target.get("id"), None


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return "".join(
        str(block.get("text", ""))
        for block in content
        if isinstance(block, dict) and block.get("type") == "text"
    )


# ---------------------------------------------------------------------------------------------
# Navigation
# ---------------------------------------------------------------------------------------------


def navigate_tree(
    session: Any,
    hooks: Any,
    settings: Any,
    target_id: str,
    *,
    summarize: bool = False,
    custom_instructions: str | None = None,
    label: str | None = None,
    progress: Progress | None = None,
    signal: Any = None,
) -> TreeOutcome:
    """Move the leaf of ``session`` to ``target_id`` (pi's ``navigateTree``).

    With ``summarize`` the abandoned entries are summarized first; a failing summarizer or
    hook raises :class:`TetherError` and nothing is written. ``session_before_tree`` may cancel,
    supply the summary, or change ``event.custom_instructions`` / ``event.label``.
    """
    say = progress or (lambda _line: None)
    file = getattr(session, "file", None) or "session"
    failure = f"{file}: navigation to {target_id} failed (session unchanged)"
    old_leaf = session.leaf_id
    if target_id == old_leaf:
        return TreeOutcome("noop", old_leaf, new_leaf_id=old_leaf)
    target = session.get_entry(target_id)
    if target is None:
        raise TetherError(f"{file}: no entry with id '{target_id}'")
    entries, ancestor = collect_abandoned_entries(session.get_entry, old_leaf, target_id)
    outcome = TreeOutcome(
        "moved",
        old_leaf,
        common_ancestor_id=ancestor,
        abandoned_entry_ids=[e.get("id", "") for e in entries],
    )
    context = session.build_context()
    view = SessionView(session, hooks, context.model)
    event = BeforeTreeEvent(
        target_id, old_leaf, ancestor, entries, summarize, custom_instructions, label
    )
    answer = call_hook(hooks, "session_before_tree", failure=failure, event=event, session=view)
    if isinstance(answer, Cancel):
        outcome.status, outcome.reason = "cancelled", answer.reason
        return outcome

    job = _SummaryJob(hooks, settings, context, say, signal, failure)
    if summarize and isinstance(answer, CustomBranchSummary):
        summary, details = answer.summary, answer.details
        outcome.from_hook, outcome.summarizer = True, "plugin"
    elif summarize and entries:
        try:
            summary, details = _summarize_abandoned(
                job, entries, event.custom_instructions, outcome
            )
        except TetherError:
            if signal is not None and signal.aborted:  # pi: cancelled, nothing written
                outcome.status, outcome.reason = "cancelled", "aborted"
                return outcome
            raise
        details["abandonedLeafId"] = old_leaf
    else:  # no summary asked for, or nothing abandoned (pi: silently none)
        summary, details = None, None

    new_leaf, outcome.editor_text = new_leaf_for(target)
    label = event.label
    if summary is not None:
        written = session.branch_with_summary(
            new_leaf, summary, details=details, from_hook=outcome.from_hook
        )
        outcome.summary_entry = _entry_of(session, written)
        if label:
            outcome.label_entry = _entry_of(
                session, session.append_label_change(outcome.summary_entry["id"], label)
            )
    else:
        _move_leaf(session, new_leaf)
        if label:
            outcome.label_entry = _entry_of(session, session.append_label_change(target_id, label))
    outcome.new_leaf_id = session.leaf_id
    say(f"leaf moved to {outcome.new_leaf_id}")
    outcome.warnings.extend(unsaved_warning(session))
    notify_hook(
        hooks,
        "session_tree",
        outcome.warnings,
        event=TreeEvent(outcome.new_leaf_id, old_leaf, outcome.summary_entry),
        session=view,
    )
    return outcome


@dataclass
class _SummaryJob:
    """What a branch summary request needs from the navigation."""

    hooks: Any
    settings: Any
    context: Any
    say: Progress
    signal: Any
    failure: str


def _summarize_abandoned(
    job: _SummaryJob, entries: list[Entry], instructions: str | None, outcome: TreeOutcome
) -> tuple[str, dict[str, Any]]:
    """The summary text (preamble + summarizer text + file lists) and its ``details``."""
    messages = [m for m in (branch_message(e) for e in entries) if m is not None]
    read_files, modified_files = branch_file_lists(entries, messages)
    details: dict[str, Any] = {"readFiles": read_files, "modifiedFiles": modified_files}
    if not messages:
        return NO_CONTENT, details
    reserve = getattr(getattr(job.settings, "branch_summary", None), "reserve_tokens", None)
    overrides = {"reserveTokens": reserve} if reserve is not None else {}
    with summary_request_base(job.hooks, job.settings, job.context, job.signal, overrides) as base:
        job.say(f"summarizing {len(messages)} messages (abandoned branch)")
        request = SummarizeRequest(
            kind="branch",
            messages=messages,
            custom_instructions=instructions,
            max_tokens=BRANCH_SUMMARY_MAX_TOKENS,
            settings=base.settings,
            model=base.model,
            registry=base.registry,
            thinking_level=base.thinking_level,
            signal=job.signal,
            app_settings=job.settings,
        )
        answer = request_summary(job.hooks, request, job.failure)
    outcome.summarizer = answer.summarizer
    return BRANCH_PREAMBLE + answer.text + format_file_lists(read_files, modified_files), details


def _move_leaf(session: Any, new_leaf: str | None) -> None:
    """Move the leaf without a summary; ``navigate`` persists the position when available."""
    navigate = getattr(session, "navigate", None)
    if callable(navigate):
        navigate(new_leaf)
    elif new_leaf is None:
        session.reset_leaf()
    else:
        session.branch(new_leaf)


def _entry_of(session: Any, written: Any) -> Entry:
    if isinstance(written, dict):
        return written
    entry = session.get_entry(written)
    if entry is None:
        raise TetherError(f"session did not return the entry it appended ({written!r})")
    return entry


__all__ = [
    "BRANCH_PREAMBLE",
    "NO_CONTENT",
    "TreeOutcome",
    "branch_file_lists",
    "branch_message",
    "collect_abandoned_entries",
    "navigate_tree",
    "new_leaf_for",
]
