"""Memory hooks: the compaction strategy, summarizers and token counting."""

from __future__ import annotations

from typing import Any

from tether.hookspecs import hookspec
from tether.hookspecs.events import (
    CompactionPreparation,
    CompactionSettings,
    Entry,
    Message,
    NothingToCompact,
    SummarizeRequest,
    Summary,
)
from tether.hookspecs.session_protocol import HookSession


@hookspec(firstresult=True)
def prepare_compaction(
    path: list[Entry], settings: CompactionSettings, session: HookSession
) -> CompactionPreparation | NothingToCompact | None:
    """Decide what a compaction summarizes and where the verbatim part starts.

    When: for ``tether session prepare``/``compact``, ``/compact`` and automatic compaction.
    Arguments: ``path`` — the active branch, root first (raw entries); ``settings`` —
    reserve and keep budgets; ``session`` — the :class:`tether.HookSession`
    (``session.count_tokens(messages)`` counts with the chosen counter).
    Return: a :class:`CompactionPreparation`, :class:`NothingToCompact` with a reason, or
    ``None`` to defer to the next strategy. Ordering: firstresult; the built-in (pi 0.73's cut
    point algorithm) is ``trylast``, so an installed strategy replaces it.

    Example::

        @hookimpl
        def prepare_compaction(path, settings, session):
            return mask_old_tool_results(path, settings)
    """


@hookspec(firstresult=True)
def summarize(request: SummarizeRequest) -> Summary | None:
    """Turn messages (and a previous summary) into a summary.

    When: during compaction (``request.kind`` ``"compaction"`` and, for a split turn,
    ``"turn_prefix"``) and branch summaries (``"branch"``). Arguments: ``request`` with
    ``messages``, ``previous_summary``, ``custom_instructions``, ``max_tokens``, ``settings``
    (the ``compaction`` settings block, e.g. ``summarizer``/``model``) and ``model`` (the
    session's current model, if any). Return: :class:`Summary` (text and who wrote it) or
    ``None`` to pass. Raise to fail the compaction — the session is then left untouched.
    Ordering: firstresult; the built-in LLM and offline summarizers are ``trylast``.

    Example::

        @hookimpl
        def summarize(request):
            if request.kind == "branch":
                return Summary(text=my_cheap_model(request.messages), summarizer="cheap")
    """


@hookspec(firstresult=True)
def count_tokens(messages: list[Message], model: dict[str, Any] | None) -> list[int] | None:
    """Count the tokens of each message.

    When: whenever tether estimates context size (compaction thresholds, cut points,
    ``tether session estimate``). Arguments: ``messages`` — agent messages; ``model`` — the
    model record (``provider``, ``id``, ``contextWindow``…) or ``None``. Return: a list of ints,
    one per message, or ``None`` to pass. Ordering: firstresult; the built-in is pi's chars/4
    estimate (``trylast``); the tiktoken counter answers when the setting
    ``tokens.counter`` is ``"tiktoken"``.

    Example::

        @hookimpl
        def count_tokens(messages, model):
            return [my_tokenizer(m) for m in messages]
    """
