"""Compaction orchestration: pi's manual/automatic compaction flow, run entirely through hooks.

:func:`compact` asks the chosen compaction strategy what to summarize, lets
``session_before_compact`` cancel or supply the compaction, asks the chosen summarizer for the
history (and, for a split turn, the turn prefix), appends the cumulative
``<read-files>``/``<modified-files>`` lists and the ``## Pinned`` section of the pins in force
(the ``pins`` hook, whoever wrote the summary), writes one ``compaction`` entry
and fires ``session_compact``. The kernel decides nothing about *how* to summarize or where to
cut: those are plugins, chosen by name (:mod:`tether.core.choices.registry`).

Guarantees: nothing to compact → no summarizer call; a split turn with no new history keeps
the previous summary instead of pi's "No prior history."; a failing strategy, hook or
summarizer raises a :class:`TetherError` naming the plugin, and the session file is left
byte-for-byte as it was.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

from tether.core.base.errors import TetherError
from tether.core.choices.running import run_strategy, token_counter
from tether.core.context.file_tracking import file_lists, format_file_lists
from tether.core.hooks.fact_cues import collect_fact_cues
from tether.core.hooks.plugin_session import PluginSession
from tether.core.memory.gate import gated_summary, previous_details
from tether.core.memory.summary_requests import (
    Progress,
    summary_attempt,
    summary_budgets,
)
from tether.hookspecs import memory as memory_hooks
from tether.hookspecs.events import (
    BeforeCompactEvent,
    Cancel,
    CompactEvent,
    CompactionPreparation,
    CompactionSettings,
    CustomCompaction,
    Entry,
    NothingToCompact,
    SummarizeRequest,
    Summary,
)

Reason = Literal["manual", "threshold", "overflow"]


@dataclass
class CompactionOutcome:
    """What :func:`compact` did.

    ``status``: ``compacted`` (``entry`` written), ``nothing`` (``reason`` says why; no model
    call) or ``cancelled`` (a plugin's ``Cancel``; ``reason`` is its reason). ``summarizer``
    names who wrote the summary (a ``Summary.summarizer``, or ``"plugin"`` for a compaction
    supplied by ``session_before_compact``). ``warnings`` are failures after the entry was
    written (a ``session_compact`` observer that raised). ``gate`` is the summary gate's
    report (also ``details.gate`` of the entry; ``None`` when no gate ran).
    """

    status: Literal["compacted", "nothing", "cancelled"]
    entry: Entry | None = None
    preparation: CompactionPreparation | None = None
    reason: str = ""
    summarizer: str = ""
    from_hook: bool = False
    summaries: list[Summary] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    gate: dict[str, Any] | None = None


def compaction_settings(settings: Any) -> CompactionSettings:
    """The ``compaction`` block of tether's settings as the hooks' :class:`CompactionSettings`."""
    block = getattr(settings, "compaction", None)
    if block is None:
        return CompactionSettings()
    options = block.model_dump(by_alias=True, exclude_none=True)
    strategy = options.get("strategy")
    return CompactionSettings(
        enabled=block.enabled,
        reserve_tokens=block.reserve_tokens,
        keep_recent_tokens=block.keep_recent_tokens,
        strategy=strategy if isinstance(strategy, str) and strategy else None,
        options=options,
    )


def summarizer_settings(settings: Any, section: str = "compaction") -> dict[str, Any]:
    """A settings block as camelCase JSON for ``SummarizeRequest.settings``."""
    block = getattr(settings, section, None)
    if block is None:
        return {}
    return block.model_dump(by_alias=True, exclude_none=True)


@contextmanager
def summary_request_base(
    hooks: Any,
    settings: Any,
    context: Any,
    signal: Any = None,
    overrides: dict[str, Any] | None = None,
) -> Iterator[SummarizeRequest]:
    """The fields every summarize request of one operation shares, with a provider registry
    (closed afterwards) so LLM summarizers reuse models.json and the ``http_client`` hook.

    ``settings`` of the request is the ``compaction`` block (``summarizer``, ``model``…)
    updated with ``overrides`` (a branch summary passes ``branchSummary``'s reserve)."""
    registry = hooks.model_registry(settings)
    try:
        yield SummarizeRequest(
            kind="compaction",
            messages=[],
            settings={**summarizer_settings(settings), **(overrides or {})},
            model=context.model,
            registry=registry,
            thinking_level=context.thinking_level,
            signal=signal,
            replace_instructions=replaces_instructions(settings),
            app_settings=settings,
        )
    finally:
        registry.close()


def summary_instructions(settings: Any, one_off: str | None = None) -> str | None:
    """The custom instructions of a summary: the setting ``compaction.instructions``
    (``--instructions`` of run/chat/rpc), then ``one_off`` (``/compact TEXT``, ``tether
    session compact --instructions``, a branch summary's), a blank line apart."""
    block = getattr(settings, "compaction", None)
    persistent = getattr(block, "instructions", None)
    parts = [(text or "").strip() for text in (persistent, one_off)]
    return "\n\n".join(part for part in parts if part) or None


def replaces_instructions(settings: Any) -> bool:
    """``compaction.replaceInstructions``: custom instructions replace the built-in prompt."""
    block = getattr(settings, "compaction", None)
    return bool(getattr(block, "replace_instructions", False))


def _failure(session: Any) -> str:
    return f"{getattr(session, 'file', None) or 'session'}: compaction failed (session unchanged)"


def compact(
    session: Any,
    hooks: Any,
    settings: Any,
    *,
    custom_instructions: str | None = None,
    reason: Reason = "manual",
    progress: Progress | None = None,
    signal: Any = None,
) -> CompactionOutcome:
    """Compact the active branch of ``session`` and return what happened.

    ``session`` is a :class:`tether.core.session.session.Session`; ``hooks`` a
    :class:`tether.core.hooks.facade.Hooks`; ``settings`` the resolved :class:`Settings`.
    ``progress`` receives short status lines (``"summarizing 42 messages"``…); ``signal``
    (an :class:`~tether.hookspecs.abort.AbortSignal`) is handed to the summarizers — once it
    fired, the outcome is ``cancelled`` and nothing is written.
    """
    say, started = progress or (lambda _line: None), time.perf_counter()
    failure = _failure(session)
    context = session.build_context()
    view = (
        session
        if isinstance(session, PluginSession)
        else PluginSession.reading(session, hooks, context.model, settings=settings)
    )
    path = session.get_branch()
    say("preparing compaction")
    preparation = _prepare(hooks, path, settings, context.model, failure)
    if isinstance(preparation, NothingToCompact):
        return CompactionOutcome("nothing", reason=preparation.reason)
    pins = hooks.pins()  # the pinned texts: summarizers never see them, every summary has them
    previous = pins.previous_summary(preparation.previous_summary, path) if pins else None
    if pins and previous != preparation.previous_summary:
        preparation = dataclasses.replace(preparation, previous_summary=previous)

    instructions = summary_instructions(settings, custom_instructions)
    event = BeforeCompactEvent(preparation, path, instructions, reason)
    answer = hooks.session_before_compact(event=event, session=view, failure=failure)
    outcome = CompactionOutcome("compacted", preparation=preparation)
    if isinstance(answer, Cancel):
        outcome.status, outcome.reason = "cancelled", answer.reason
        return outcome
    if isinstance(answer, CustomCompaction):
        summary, first_kept, tokens_before = (
            answer.summary,
            answer.first_kept_entry_id,
            answer.tokens_before,
        )
        details, outcome.from_hook, outcome.summarizer = answer.details, True, "plugin"
        if all(entry.get("id") != first_kept for entry in path):
            outcome.warnings.append(
                f"the plugin's compaction keeps from '{first_kept}', which is not on the "
                "branch: the context will start with the summary"
            )
    else:
        try:
            with summary_request_base(hooks, settings, context, signal) as base:
                base = dataclasses.replace(
                    base,
                    previous_details=previous_details(path),
                    fact_cues=collect_fact_cues(hooks.pm),
                )
                text, outcome.summaries, outcome.gate, answers = gated_summary(
                    hooks, view, path, preparation, base, event.custom_instructions,
                    lambda request, note, keep: summary_attempt(
                        hooks, preparation, request, event.custom_instructions, say, failure,
                        note=note, keep=keep,
                    ),
                    max_chars=summary_budgets(preparation.settings.reserve_tokens)[0] * 4,
                    say=say, failure=failure,
                )  # fmt: skip
        except TetherError:
            if signal is not None and signal.aborted:
                outcome.status, outcome.reason = "cancelled", "aborted"
                return outcome
            raise
        outcome.summarizer = summarizer_names(outcome.summaries)
        summary, details = _with_file_lists(text, preparation)
        if outcome.gate is not None:  # tether's additions (pi ignores them; pi mode: none)
            details["summarizer"], details["gate"] = outcome.summarizer, outcome.gate
            for extra in hooks.every(memory_hooks.compaction_details, dict, failure=failure)(
                preparation=preparation,
                summaries=outcome.summaries,
                answers=answers,
                summarizer=outcome.summarizer,
                summary=text,
                count=token_counter(hooks.pm, settings, model=context.model),
                started=started,
            ):
                details.update(extra)
        first_kept, tokens_before = preparation.first_kept_entry_id, preparation.tokens_before

    summary = pins.stored_summary(summary, path) if pins else summary  # whoever wrote it
    written = session.append_compaction(
        summary, first_kept, tokens_before, details=details, from_hook=outcome.from_hook
    )
    outcome.entry = appended_entry(session, written)
    say(f"wrote compaction entry {outcome.entry.get('id')}")
    outcome.warnings.extend(unsaved_warning(session))
    hooks.session_compact(
        event=CompactEvent(outcome.entry, outcome.from_hook),
        session=view,
        warnings=outcome.warnings,
    )
    return outcome


def _prepare(
    hooks: Any, path: list[Entry], settings: Any, model: Any, failure: str
) -> CompactionPreparation | NothingToCompact:
    """Ask the chosen strategy, with the chosen token counter; failures name the plugin."""
    try:
        count = token_counter(hooks.pm, settings, model=model)
        return run_strategy(
            hooks.pm, path, compaction_settings(settings), count, model=model, app_settings=settings
        )
    except TetherError as exc:
        raise TetherError(f"{failure}: {exc}") from exc


def _with_file_lists(text: str, preparation: CompactionPreparation) -> tuple[str, dict[str, Any]]:
    """The stored summary (text + ``<read-files>``/``<modified-files>``) and its ``details``;
    a strategy's ``extra["details"]`` is merged into the details."""
    read_files, modified_files = file_lists(preparation.file_ops)
    details: dict[str, Any] = {"readFiles": read_files, "modifiedFiles": modified_files}
    strategy_details = preparation.extra.get("details")
    if isinstance(strategy_details, dict):
        details.update(strategy_details)
    return text + format_file_lists(read_files, modified_files), details


def unsaved_warning(session: Any) -> list[str]:
    """A warning when appended entries are only in memory (pi's lazy persistence rule)."""
    persisted = getattr(session, "persisted_count", None)
    if getattr(session, "file", None) is None or persisted is None or persisted >= len(session):
        return []
    return [
        "not written to disk yet: like pi, tether writes a session file only once it has an "
        "assistant message"
    ]


def summarizer_names(summaries: list[Summary]) -> str:
    """``"llm"``, or ``"a+b"`` when two summarizers answered the two parts of a split turn."""
    return "+".join(dict.fromkeys(s.summarizer for s in summaries))


def appended_entry(session: Any, written: Any) -> Entry:
    """The entry an ``append_*`` call wrote (it returns the entry or its id)."""
    if isinstance(written, dict):
        return written
    entry = session.get_entry(written)
    if entry is None:
        raise TetherError(f"session did not return the entry it appended ({written!r})")
    return entry


__all__ = [
    "CompactionOutcome",
    "Reason",
    "appended_entry",
    "compact",
    "compaction_settings",
    "replaces_instructions",
    "summarizer_names",
    "summarizer_settings",
    "summary_instructions",
    "summary_request_base",
    "unsaved_warning",
]
