"""Event and result objects passed to and returned from hooks.

Events are mutable dataclasses: in a chained hook every implementation receives the same
object, so a later implementation sees what an earlier one changed (pi's semantics).
Messages and entries are plain JSON-shaped dicts in pi's session format
(see ``tether.builtin_plugins.storage.format.stringify``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

Message = dict[str, Any]
Entry = dict[str, Any]


@dataclass
class Block:
    """Returned from ``before_tool_call`` to refuse a call; ``reason`` becomes the tool result."""

    reason: str


@dataclass
class Cancel:
    """Returned from a ``session_before_*`` hook to cancel the operation."""

    reason: str = "cancelled by a plugin"


@dataclass
class InputEvent:
    """User text about to be sent: edit ``text``/``images``, or set ``handled`` to swallow it."""

    text: str
    images: list[dict[str, Any]] = field(default_factory=list)
    source: Literal["interactive", "run", "plugin"] = "interactive"
    handled: bool = False


@dataclass
class BeforeAgentStartEvent:
    """Fired once per user prompt before the agent runs."""

    prompt: str
    images: list[dict[str, Any]] = field(default_factory=list)
    system_prompt: str = ""


@dataclass
class ContextEvent:
    """The messages about to be converted and sent to the model: a list whose items are
    copied when first read (the stored messages never change)."""

    messages: list[Message]


@dataclass
class PruneEvent:
    """The messages about to be sent, before the ``context`` hook: the agent's own objects
    (read them, never change them); ``preview`` is true for the automatic compaction's
    threshold check, which asks what the next call would send; ``context_window`` is the
    model's (0: unknown)."""

    messages: list[Message]
    preview: bool = False
    context_window: int = 0


@dataclass
class PrunedContext:
    """A ``prune_context`` answer: ``messages`` to send (same length and order, some replaced
    by new objects); ``freed`` — the estimated tokens this call leaves out that the previous
    call still sent; ``saved`` — the estimated tokens left out in all; ``report`` — when this
    call pruned more (a step), what it did (shown as a ``context_pruned`` event)."""

    messages: list[Message]
    freed: int = 0
    saved: int = 0
    report: dict[str, Any] | None = None


@dataclass
class BeforeToolCallEvent:
    """A tool call the model asked for, before it executes; ``input`` may be patched in place."""

    tool_call_id: str
    tool_name: str
    input: dict[str, Any]


@dataclass
class ToolResultEvent:
    """A finished tool call; patch ``content``, ``details`` or ``is_error`` to change the result."""

    tool_call_id: str
    tool_name: str
    input: dict[str, Any]
    content: list[dict[str, Any]]
    details: Any = None
    is_error: bool = False
    terminate: bool = False  # True: no further model call for this batch (pi 0.73)


@dataclass
class AgentEvent:
    """A lifecycle event: ``type`` is one of agent_start, agent_end, turn_start, turn_end,
    message_start, message_update, message_end, tool_execution_start, tool_execution_update,
    tool_execution_end, compaction_start, compaction_end, auto_retry_start, auto_retry_end."""

    type: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class CompactionSettings:
    """pi's compaction settings (defaults: enabled, reserve 16384, keep 20000)."""

    enabled: bool = True
    reserve_tokens: int = 16384
    keep_recent_tokens: int = 20000
    # The strategy the settings ask for (``compaction.strategy``; ``None`` = the built-in, pi's)
    # and the whole ``compaction`` block (camelCase) for strategy-specific keys. A strategy
    # plugin that is installed but not asked for should return ``None``.
    strategy: str | None = None
    options: dict[str, Any] = field(default_factory=dict)


@dataclass
class CompactionPreparation:
    """What a compaction strategy decided: what to summarize and where the kept part starts.

    ``messages_to_summarize`` and ``turn_prefix_messages`` are agent messages (pi's
    ``AgentMessage`` dicts); the ``*_entry_ids`` name the entries they came from.
    """

    first_kept_entry_id: str
    messages_to_summarize: list[Message]
    turn_prefix_messages: list[Message]
    is_split_turn: bool
    tokens_before: int
    previous_summary: str | None
    file_ops: dict[str, list[str]]
    settings: CompactionSettings
    summarized_entry_ids: list[str] = field(default_factory=list)
    turn_prefix_entry_ids: list[str] = field(default_factory=list)
    strategy: str = "pi"
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class NothingToCompact:
    """Returned by a strategy when there is nothing to compact; ``reason`` is shown to the user."""

    reason: str


@dataclass
class CustomCompaction:
    """Returned from ``session_before_compact`` to supply the compaction itself."""

    summary: str
    first_kept_entry_id: str
    tokens_before: int
    details: Any = None


@dataclass
class BeforeCompactEvent:
    """Fired before a compaction is summarized and written. ``custom_instructions``: the
    setting ``compaction.instructions``, then a manual compaction's own, a blank line apart."""

    preparation: CompactionPreparation
    branch_entries: list[Entry]
    custom_instructions: str | None = None
    reason: Literal["manual", "threshold", "overflow"] = "manual"


@dataclass
class CompactEvent:
    """Fired after the compaction entry is on disk."""

    entry: Entry
    from_hook: bool


@dataclass
class SummarizeRequest:
    """Input of a summarizer (see ``register_summarizers``).

    ``kind`` is ``compaction`` (history before the cut, folded into ``previous_summary`` when
    given), ``turn_prefix`` (the early part of a turn that was split) or ``branch`` (an abandoned
    branch). ``messages`` are agent messages; ``max_tokens`` is the output budget; ``settings``
    the ``compaction`` block (camelCase); ``model`` the session's model as its context records
    it (``{"provider", "modelId"}``) or ``None``.
    """

    kind: Literal["compaction", "turn_prefix", "branch"]
    messages: list[Message]
    previous_summary: str | None = None
    custom_instructions: str | None = None
    max_tokens: int = 2048
    settings: dict[str, Any] = field(default_factory=dict)
    model: dict[str, Any] | None = None
    # Added for the LLM summarizer: the caller's ``ProviderRegistry`` (models.json, keys, the
    # ``http_client`` hook; ``None`` = a fresh one), the session's thinking level (passed as
    # reasoning on reasoning models), an abort signal, and pi's ``replaceInstructions``
    # (``custom_instructions`` replace the built-in instructions: setting
    # ``compaction.replaceInstructions``, for the history of a compaction and branch summaries).
    registry: Any = None
    thinking_level: str | None = None
    signal: Any = None
    replace_instructions: bool = False
    # The whole resolved settings (``tether.load_settings``; ``None`` outside a session): a
    # section is ``request.app_settings.extra("plugins")``. ``plugin_settings``, set by the
    # kernel before each call, is the ``plugins.<name>`` section of the plugin that registered
    # the summarizer being called (``{}`` when absent), as a strategy's ``PrepareRequest`` has.
    app_settings: Any = None
    plugin_settings: dict[str, Any] = field(default_factory=dict)
    # Added for the fact ledger: the ``details`` of the compaction entry the previous summary
    # comes from (``None`` without one), the entry ids of ``messages`` (same order; may be
    # empty) and the cue tables plugins registered (``register_fact_cues``: language → table).
    previous_details: dict[str, Any] | None = None
    entry_ids: list[str] = field(default_factory=list)
    fact_cues: dict[str, Any] = field(default_factory=dict)
    # Set by the kernel before it calls a summarizer: see :meth:`summarize_with`.
    delegate: Any = field(default=None, repr=False, compare=False)

    def summarize_with(self, name: str | None = None, **changes: Any) -> Summary:
        """Hand this request (with ``changes`` to its fields) to the summarizer registered as
        ``name`` — ``None``: the built-in default (``llm`` when a model is known, else
        ``offline``) — and return its :class:`Summary`. E.g. a summarizer with its own model:
        ``request.summarize_with("llm", settings={**request.settings, "model": "p/m"})``.
        Raises :class:`tether.TetherError` (unknown name, itself, or that summarizer failed:
        its error is ``__cause__``); ``TypeError`` for a key that is not a field."""
        if self.delegate is None:
            raise RuntimeError("summarize_with works only in a summarizer called by tether")
        return self.delegate(name, changes)

    def derive(
        self,
        kind: Literal["compaction", "turn_prefix", "branch"],
        messages: list[Message],
        max_tokens: int,
        previous_summary: str | None,
        custom_instructions: str | None,
        *,
        entry_ids: list[str] | None = None,
        replace: bool = False,
    ) -> SummarizeRequest:
        """A request for one summary sharing this request's model, registry, settings and
        signal (``previous_details`` only with a ``previous_summary``)."""
        return SummarizeRequest(
            kind=kind,
            messages=messages,
            previous_summary=previous_summary,
            custom_instructions=custom_instructions,
            max_tokens=max_tokens,
            settings=dict(self.settings),
            model=self.model,
            registry=self.registry,
            thinking_level=self.thinking_level,
            signal=self.signal,
            replace_instructions=replace,
            app_settings=self.app_settings,
            previous_details=self.previous_details if previous_summary else None,
            entry_ids=list(entry_ids or []),
            fact_cues=self.fact_cues,
        )


@dataclass
class PrepareRequest:
    """Input of a compaction strategy (see ``register_compaction_strategies``).

    ``path`` is the active branch, root first (raw entries); ``settings`` the reserve and keep
    budgets (``settings.options``: the whole ``compaction`` settings block, for the strategy's
    own keys); ``count(messages) -> list[int]`` the chosen token counter; ``model`` the
    session's model as its context records it (``{"provider", "modelId"}``) or ``None``;
    ``plugin_settings`` the ``plugins.<name>`` section of settings.json for the plugin that
    registered the strategy (``{}`` when absent).
    """

    path: list[Entry]
    settings: CompactionSettings
    count: Callable[[list[Message]], list[int]]
    model: dict[str, Any] | None = None
    plugin_settings: dict[str, Any] = field(default_factory=dict)


@dataclass
class Summary:
    """Output of a summarizer; ``summarizer`` names who wrote it.

    ``reply_problem`` says why the answer is not a real summary (a model reply that was a tool
    call, was cut at the output limit or had no text), set instead of raising so the summary
    gate (``gate_summary``) can retry or hand over to another summarizer; with no gate such a
    summary is refused and nothing is written. A summarizer that wraps another passes it on.
    """

    text: str
    summarizer: str
    details: dict[str, Any] = field(default_factory=dict)
    reply_problem: str | None = None


@dataclass
class BeforeTreeEvent:
    """Fired before the leaf moves to ``target_id``; ``entries_to_summarize`` were abandoned.

    ``custom_instructions`` (the setting ``compaction.instructions``, then the navigation's
    own) are added to the branch summary's prompt, or replace it when
    ``replace_instructions`` (pi's ``replaceInstructions``; setting
    ``compaction.replaceInstructions``)."""

    target_id: str | None
    old_leaf_id: str | None
    common_ancestor_id: str | None
    entries_to_summarize: list[Entry]
    summarize: bool
    custom_instructions: str | None = None
    label: str | None = None
    replace_instructions: bool = False


@dataclass
class CustomBranchSummary:
    """Returned from ``session_before_tree`` to supply the branch summary text."""

    summary: str
    details: Any = None


@dataclass
class TreeEvent:
    """Fired after navigation; ``summary_entry`` is the written branch summary, if any."""

    new_leaf_id: str | None
    old_leaf_id: str | None
    summary_entry: Entry | None = None


@dataclass
class BeforeForkEvent:
    """Fired before a fork (``position='before'`` a user message) or clone (``'at'`` an entry)."""

    entry_id: str | None
    position: Literal["before", "at"]


@dataclass
class RetryDecision:
    """Returned from ``retry_decision``: ``retry`` — wait ``delay_ms`` then call the model
    again; else ``reason`` says why not (``announce``: tell the user even on a first attempt).
    ``max_attempts`` is shown with the attempt number; ``warning`` is shown once (e.g. a server
    value that was ignored). ``attempt`` is filled in by the kernel."""

    retry: bool
    attempt: int = 0
    max_attempts: int = 0
    delay_ms: int = 0
    reason: str = ""
    announce: bool = False
    warning: str = ""


__all__ = [
    "AgentEvent",
    "BeforeAgentStartEvent",
    "BeforeCompactEvent",
    "BeforeForkEvent",
    "BeforeToolCallEvent",
    "BeforeTreeEvent",
    "Block",
    "Cancel",
    "CompactEvent",
    "CompactionPreparation",
    "CompactionSettings",
    "ContextEvent",
    "CustomBranchSummary",
    "CustomCompaction",
    "Entry",
    "InputEvent",
    "Message",
    "NothingToCompact",
    "PrepareRequest",
    "PruneEvent",
    "PrunedContext",
    "RetryDecision",
    "SummarizeRequest",
    "Summary",
    "ToolResultEvent",
    "TreeEvent",
]
