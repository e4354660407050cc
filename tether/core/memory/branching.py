"""Tree navigation with an optional branch summary (pi's ``navigateTree``), through hooks.

:func:`navigate_tree` moves the session's leaf to an entry. The entries abandoned on the way
(from the old leaf back to the common ancestor with the target) can be summarized: the
``summarize`` hook gets them as messages with ``kind="branch"``, and the summary becomes a
``branch_summary`` entry placed exactly where pi places it — a child of the new position
(the target, or the parent of a target user message), followed by the label if one was given.

The input is the ``prepare_branch_summary`` hook's (built-in: pi's, plugin
``compaction_strategy``): the newest abandoned messages that fit
``contextWindow − branchSummary.reserveTokens`` of the session's model, counted with the
chosen token counter; the file lists cover the messages walked and earlier branch summaries.
A summarizer whose own model is smaller still folds the input in chunks.
``details`` also names the abandoned leaf. The summary carries the pins in force on the branch
left (the ``pins`` hook; the built-in adds a ``## Pinned`` section).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from tether.core.base.errors import TetherError
from tether.core.context.build import path_to_root
from tether.core.context.content_text import content_text
from tether.core.context.file_tracking import file_lists, format_file_lists
from tether.core.hooks.plugin_session import PluginSession
from tether.core.memory.compaction import (
    appended_entry,
    replaces_instructions,
    summary_instructions,
    summary_request_base,
    unsaved_warning,
)
from tether.core.memory.summary_requests import Progress, request_summary
from tether.hookspecs import memory as memory_hooks
from tether.hookspecs.branch import BranchPreparation
from tether.hookspecs.events import BeforeTreeEvent, Cancel, CustomBranchSummary, Entry, TreeEvent

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
    no_summary: str = ""  # why no summary was written although one was asked for


# ---------------------------------------------------------------------------------------------
# Where the leaf goes
# ---------------------------------------------------------------------------------------------


def new_leaf_for(target: Entry) -> tuple[str | None, str | None]:
    """``(new leaf id, editor text)``: a user or custom message target is re-opened for editing
    (the leaf goes to its parent); any other target becomes the leaf itself."""
    kind = target.get("type")
    message = target.get("message") if kind == "message" else None
    if isinstance(message, dict) and message.get("role") == "user":
        return target.get("parentId"), content_text(message.get("content"))
    if kind == "custom_message":
        return target.get("parentId"), content_text(target.get("content"))
    return target.get("id"), None


def collect_abandoned_entries(
    get_entry: Callable[[str], Entry | None], old_leaf_id: str | None, target_id: str
) -> tuple[list[Entry], str | None]:
    """``(entries, common_ancestor_id)``: the entries below the deepest common ancestor of the
    old leaf and the target, down to the old leaf, chronologically (compactions included).

    ``get_entry`` looks an entry up by id (``Session.get_entry`` or ``dict.get``). No old leaf
    → nothing abandoned.
    """
    old_leaf = get_entry(old_leaf_id) if old_leaf_id else None
    if old_leaf is None:
        return [], None
    old_path = path_to_root(old_leaf, get_entry)
    target = get_entry(target_id)
    target_path = path_to_root(target, get_entry) if target is not None else []
    position = {entry.get("id"): i for i, entry in enumerate(old_path)}
    for entry in reversed(target_path):  # deepest first
        index = position.get(entry.get("id"))
        if index is not None:
            return old_path[index + 1 :], entry.get("id")
    return old_path, None


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
    skip_empty_summary: bool = False,
) -> TreeOutcome:
    """Move the leaf of ``session`` to ``target_id`` (pi's ``navigateTree``).

    With ``summarize`` the abandoned entries are summarized first; a failing summarizer or
    hook raises :class:`TetherError` and nothing is written. When none of them has anything
    to summarize, pi writes a "No content to summarize" entry; with ``skip_empty_summary``
    nothing is written and ``outcome.no_summary`` says why. ``custom_instructions`` follow the
    setting ``compaction.instructions`` (``compaction.replaceInstructions``: they replace the
    built-in prompt). ``session_before_tree`` may cancel, supply the summary, or change
    ``event.custom_instructions`` / ``event.replace_instructions`` / ``event.label``.
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
    view = (
        session
        if isinstance(session, PluginSession)
        else PluginSession.reading(session, hooks, context.model, settings=settings)
    )
    instructions = summary_instructions(settings, custom_instructions)
    event = BeforeTreeEvent(
        target_id, old_leaf, ancestor, entries, summarize, instructions, label,
        replace_instructions=replaces_instructions(settings),
    )  # fmt: skip
    answer = hooks.session_before_tree(event=event, session=view, failure=failure)
    if isinstance(answer, Cancel):
        outcome.status, outcome.reason = "cancelled", answer.reason
        return outcome

    job = _SummaryJob(hooks, settings, context, say, signal, failure)
    if summarize and isinstance(answer, CustomBranchSummary):
        summary, details = answer.summary, answer.details
        outcome.from_hook, outcome.summarizer = True, "plugin"
    elif summarize and entries:
        try:
            summary, details = _summarize_abandoned(job, entries, event, outcome)
            if skip_empty_summary and summary == NO_CONTENT and not outcome.summarizer:
                summary, details = None, {}
                left = f"{len(entries)} entr{'y' if len(entries) == 1 else 'ies'}"
                outcome.no_summary = f"nothing to summarize in the {left} left"
        except TetherError:
            if signal is not None and signal.aborted:  # pi: cancelled, nothing written
                outcome.status, outcome.reason = "cancelled", "aborted"
                return outcome
            raise
        if summary is not None:
            details["abandonedLeafId"] = old_leaf
    else:  # no summary asked for, or nothing abandoned (pi: silently none)
        summary, details = None, None

    new_leaf, outcome.editor_text = new_leaf_for(target)
    label = event.label
    if summary is not None:
        pins = hooks.pins()  # the pins in force on the branch left
        if pins is not None:
            left = session.get_branch(old_leaf) if old_leaf else []
            summary = pins.stored_summary(summary, left)
        written = session.branch_with_summary(
            new_leaf, summary, details=details, from_hook=outcome.from_hook
        )
        outcome.summary_entry = appended_entry(session, written)
        if label:
            outcome.label_entry = appended_entry(
                session, session.append_label_change(outcome.summary_entry["id"], label)
            )
    else:
        _move_leaf(session, new_leaf)
        if label:
            outcome.label_entry = appended_entry(
                session, session.append_label_change(target_id, label)
            )
    outcome.new_leaf_id = session.leaf_id
    say(f"leaf moved to {outcome.new_leaf_id}")
    outcome.warnings.extend(unsaved_warning(session))
    hooks.session_tree(
        event=TreeEvent(outcome.new_leaf_id, old_leaf, outcome.summary_entry),
        session=view,
        warnings=outcome.warnings,
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

    def count(self, messages: list[dict[str, Any]]) -> list[int]:
        """Token counts from the chosen token counter, for the session's model."""
        from tether.core.choices.running import token_counter

        try:
            return token_counter(self.hooks.pm, self.settings, model=self.context.model)(messages)
        except TetherError as exc:
            raise TetherError(f"{self.failure}: {exc}") from exc

    @property
    def reserve(self) -> int:
        """The setting ``branchSummary.reserveTokens``."""
        return self.settings.branch_summary.reserve_tokens

    def prepare(self, entries: list[Entry], registry: Any) -> BranchPreparation:
        """The ``prepare_branch_summary`` hook's input (built-in: pi's, the newest messages
        within the model's window minus the reserve); a counter's failure is said as the
        navigation's, not blamed on the plugin that called it."""
        failed: list[TetherError] = []

        def count(messages: list[dict[str, Any]]) -> list[int]:
            try:
                return self.count(messages)
            except TetherError as exc:
                failed.append(TetherError(str(exc)))
                raise

        try:
            prepared = self.hooks.first(
                memory_hooks.prepare_branch_summary, BranchPreparation, failure=self.failure
            )(
                entries=entries,
                count=count,
                context_window=_context_window(registry, self.context.model),
                reserve_tokens=self.reserve,
            )
        except TetherError as exc:
            if failed:
                raise failed[0] from exc
            raise
        if prepared is None:
            raise TetherError(f"{self.failure}: no plugin prepares a branch summary")
        return prepared


def _context_window(registry: Any, model: dict[str, Any] | None) -> int | None:
    """The context window of the session's model, if the provider registry knows it."""
    if not model or not model.get("modelId") or registry is None:
        return None
    from tether.core.base.errors import ProviderConfigError

    try:
        found, _adapter = registry.resolve(provider=model.get("provider"), model=model["modelId"])
    except ProviderConfigError:
        return None
    return getattr(found, "context_window", None)


def _summarize_abandoned(
    job: _SummaryJob, entries: list[Entry], event: BeforeTreeEvent, outcome: TreeOutcome
) -> tuple[str, dict[str, Any]]:
    """The summary text (preamble + summarizer text + file lists) and its ``details``."""
    overrides = {"reserveTokens": job.reserve}
    with summary_request_base(job.hooks, job.settings, job.context, job.signal, overrides) as base:
        prepared = job.prepare(entries, base.registry)
        if not prepared.messages:  # pi: no text, no file lists
            return NO_CONTENT, {"readFiles": [], "modifiedFiles": []}
        job.say(f"summarizing {len(prepared.messages)} messages (abandoned branch)")
        request = base.derive(
            "branch",
            prepared.messages,
            BRANCH_SUMMARY_MAX_TOKENS,
            None,
            event.custom_instructions,
            replace=event.replace_instructions,
        )
        answer = request_summary(job.hooks, request, job.failure)
    outcome.summarizer = answer.summarizer
    read_files, modified_files = file_lists(prepared.file_ops)
    details: dict[str, Any] = {"readFiles": read_files, "modifiedFiles": modified_files}
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


__all__ = [
    "BRANCH_PREAMBLE",
    "BRANCH_SUMMARY_MAX_TOKENS",
    "NO_CONTENT",
    "TreeOutcome",
    "navigate_tree",
    "new_leaf_for",
]
