"""Hooks around one agent turn: user input, system prompt, context, tool calls, events."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tether.hookspecs import hookspec
from tether.hookspecs.session_protocol import HookSession

if TYPE_CHECKING:  # annotations only: the events are imported when a plugin asks for them
    from tether.hookspecs.events import (
        AgentEvent,
        BeforeAgentStartEvent,
        BeforeToolCallEvent,
        Block,
        ContextEvent,
        InputEvent,
        Message,
        PrunedContext,
        PruneEvent,
        RetryDecision,
        ToolResultEvent,
    )


@hookspec
def input(event: InputEvent, session: HookSession) -> None:  # noqa: A001 - pi's event name
    """Transform or handle user text before anything else sees it (pi's ``input``).

    When: for every prompt typed in chat, given to ``tether run`` or sent by a plugin, before
    ``before_agent_start``. Arguments: ``event`` — mutable :class:`InputEvent`; ``session`` — the
    :class:`tether.HookSession`. Return: nothing (another value is an error naming the
    plugin); edit ``event.text``/``event.images`` or
    set ``event.handled = True`` to stop the prompt (nothing is sent or stored).
    Ordering: chain — every implementation runs, in plugin order, each sees earlier edits.

    Example::

        @hookimpl
        def input(event):
            event.text = event.text.replace("$BRANCH", current_branch())
    """


@hookspec
def before_agent_start(event: BeforeAgentStartEvent, session: HookSession) -> list[Message] | None:
    """Adjust the system prompt and inject messages before a run (pi's ``before_agent_start``).

    When: once per user prompt, after ``input``, before the user message is stored.
    Arguments: ``event.prompt`` (the user text), ``event.images``, ``event.system_prompt``
    (editable; later implementations see earlier edits); ``session``.
    Return: ``None`` or a list of custom messages ``{"customType": str (non-empty),
    "content": str | [text/image blocks], "display"?: bool, "details"?}``; each is stored as
    a ``custom_message`` entry right after the user message (pi's order) and sent to the
    model as a user message. Ordering: chain for the prompt, collect for messages (plugin
    order). Failure: a raise or any other answer (a bare str or dict, a message without
    ``customType``, non-text content, ``details`` that JSON cannot store) is one error naming
    the plugin; the run stops and nothing is written to the session.

    Example::

        @hookimpl
        def before_agent_start(event):
            event.system_prompt += "\\nBe brief."
            return [{"customType": "note", "content": "It is Friday.", "display": False}]
    """


@hookspec(firstresult=True)
def prune_context(event: PruneEvent, session: HookSession) -> PrunedContext | None:
    """Leave old tool output out of the messages sent to the model (the pruning stage).

    When: before every model call of a run, before ``context`` (``event.preview`` false: the
    answer is what ``context`` receives and the model is sent), and in the automatic
    compaction's threshold check, after a run and before a prompt (``event.preview`` true: say
    what a call made now would send, a step that is due included; write nothing, change no
    state). Arguments: ``event.messages`` — the agent's messages, its own objects: read them,
    never change them, return new objects for what you replace; ``event.context_window`` —
    the model's (0: unknown); ``session`` — the :class:`tether.HookSession`.
    Return: a ``tether.PrunedContext`` — ``messages`` (same length and order), ``freed`` (the
    estimated tokens this call leaves out that the previous call still sent: the threshold
    check subtracts it from the size the last reported usage gives), ``saved`` (all the
    estimated tokens left out: subtracted when the size is estimated in full) and ``report``
    (only when this call pruned more: it is announced as a ``context_pruned`` event, one line
    in ``tether run``) — or ``None``: the messages go on unchanged. A compaction runs only when
    the pruned size is still past ``window − reserve``. The stored entries never change.
    Ordering: firstresult; the built-in stage (plugin ``prune``, on unless
    ``compaction.prune.enabled`` is false or ``--no-prune`` is given) is ``trylast``, so an
    installed implementation replaces it (or block it: ``--disable-plugin prune``).
    Failure: an implementation that raises or answers anything else stops the run with one
    error naming the plugin; nothing is sent to the model.

    Example::

        import tether

        @tether.hookimpl
        def prune_context(event):  # tool output older than the last 20 messages: left out
            old = len(event.messages) - 20
            gone = {"type": "text", "text": "(old output left out)"}
            return tether.PrunedContext([
                {**m, "content": [gone]} if i < old and m.get("role") == "toolResult" else m
                for i, m in enumerate(event.messages)
            ])
    """


@hookspec
def context(event: ContextEvent, session: HookSession) -> None:
    """Edit the messages about to be sent to the model (pi's ``context``).

    When: before every model call of a run (and in ``tether session context``). Arguments:
    ``event.messages`` (agent messages, editable in place or by assignment: a list whose
    items are copied when first read, so the session is never changed and a hook pays only
    for the messages it reads); ``session``. Return: nothing; ``event.messages`` must stay a
    list of message objects, each with a string ``role``. A message a hook adds is an agent
    message, usually a custom one: ``{"role": "custom", "customType": str, "content": str |
    [text/image blocks], "display"?: bool, "timestamp"?: ms}`` — sent as a user message, never
    stored. Ordering: chain, plugin order.
    Failure: an implementation that raises, or leaves ``event.messages`` anything else
    (``None``, a non-object item), stops the run with one error naming the plugin
    (``plugin 'x' failed in context: …``); nothing is sent to the model. On a prompt's first
    call the hooks run before the prompt is stored, so such a failure writes nothing.

    Example::

        @hookimpl
        def context(event):
            event.messages = [m for m in event.messages if m.get("customType") != "debug"]
            event.messages.append({"role": "custom", "customType": "date", "content": "Monday"})
    """


@hookspec(firstresult=True)
def before_tool_call(event: BeforeToolCallEvent, session: HookSession) -> Block | None:
    """Inspect, patch or refuse a tool call (pi's ``tool_call``).

    When: after the model asked for a tool and its arguments were validated, before it runs.
    Arguments: ``event.tool_name``, ``event.tool_call_id``, ``event.input`` (may be patched in
    place); ``session``. Return: :class:`Block` with a reason to refuse — the reason is the
    error tool result the model sees — or ``None`` to allow. Ordering: firstresult, third-party
    plugins before built-ins; the first ``Block`` wins. Failure: an implementation that raises,
    returns anything else (a string, ``True``…) or passes ``plugins.hookTimeoutMs`` *blocks*
    the call — a broken guard never lets a call through — and one warning line names the
    plugin and the hook; the model reads ``blocked: plugin 'x' failed in before_tool_call: …``.

    Example::

        @hookimpl
        def before_tool_call(event):
            if event.tool_name == "bash" and "rm -rf /" in event.input.get("command", ""):
                return Block("refusing to delete the filesystem")
    """


@hookspec
def tool_result(event: ToolResultEvent, session: HookSession) -> None:
    """Patch a tool's result before it is stored and sent (pi's ``tool_result``).

    When: after a tool executed (successfully or by raising); not for calls that were
    blocked, named an unknown tool or failed argument validation. Arguments: ``event`` with
    ``content``, ``details``, ``is_error`` (editable), ``tool_name``, ``input``; ``session``.
    Return: nothing. Ordering: chain, plugin order. Failure: an implementation that raises,
    returns a value or passes ``plugins.hookTimeoutMs`` is *skipped* — one warning line names
    the plugin and the hook, the result stays as the tool and the earlier plugins left it.

    Example::

        @hookimpl
        def tool_result(event):
            if event.tool_name == "bash":
                event.content.append({"type": "text", "text": "(ran in sandbox)"})
    """


@hookspec
def agent_event(event: AgentEvent, session: HookSession) -> None:
    """Observe the agent's lifecycle: runs, turns, messages, tool executions, compactions.

    When: as each event happens, synchronously in the agent's thread. Arguments: ``event.type``
    and ``event.data`` (e.g. ``{"message": …}`` for message events, ``{"tool_call_id", "tool_name",
    "result"}`` for tool events); ``session``. Return: ignored. Ordering: notify — all run; an
    exception is reported and does not stop the agent.

    Example::

        @hookimpl
        def agent_event(event):
            if event.type == "turn_end":
                log.info("turn done")
    """


@hookspec(firstresult=True)
def retry_decision(
    error: Any, attempt: int, settings: Any, message: Message
) -> RetryDecision | None:
    """Decide whether a failed model call is tried again, and after how long.

    When: after a run whose last assistant message ended with ``stopReason: "error"``, before
    context-overflow recovery; again after each failed retry. Arguments: ``error`` — the typed
    provider error (``tether.hookspecs.providers.ProviderError``: ``retryable`` is true for 429,
    5xx, timeouts and dropped connections, ``status``, ``retry_after`` in seconds or ``None``),
    or ``None`` when the failure has no typed error; ``attempt`` — the number of the retry being
    decided (1 for the first); ``settings`` — the merged settings (``settings.retry.enabled``,
    ``max_retries``, ``base_delay_ms``, ``max_delay_ms``); ``message`` — the failed assistant
    message (read it, do not change it; decide on ``error``, not on message text). Return: a
    :class:`~tether.hookspecs.events.RetryDecision` — ``RetryDecision(True, delay_ms=N)`` to
    retry after N ms (Ctrl-C cancels the wait), ``RetryDecision(False, reason=...)`` to give
    up (the error stands) — or ``None`` to let the next implementation decide. Ordering:
    firstresult; the built-in policy (plugin ``retry_policy``: transient errors only, delays
    ``baseDelayMs × 2^(attempt−1)``, a longer ``Retry-After`` honoured up to ``maxDelayMs``,
    beyond that give up) is ``trylast``, so any plugin answering wins. With no answer at all the
    call is not retried. If an implementation raises or returns anything but a
    ``RetryDecision``, a warning names the plugin and the call is not retried.

    Example::

        @hookimpl
        def retry_decision(error, attempt):
            if getattr(error, "status", None) == 529 and attempt <= 5:  # overloaded
                return RetryDecision(True, delay_ms=10_000)
            return None
    """


@hookspec(firstresult=True)
def context_overflow(message: Message, context_window: int | None) -> bool | None:
    """Decide whether a failed model call was a context overflow, when its provider said so
    only in words.

    When: after a run whose last assistant message ended with ``stopReason: "error"`` and whose
    provider gave no typed error (a typed overflow error, ``error.kind == "overflow"``, decides
    without this hook), for the current model. Arguments: ``message`` — the failed assistant
    message (read it, do not change it: ``errorMessage``, ``usage``, ``stopReason``);
    ``context_window`` — the model's window in tokens, or ``None``. Return: ``True`` for an
    overflow (the context is compacted and the turn retried once, as pi does), ``False`` for
    another failure, or ``None`` to let the next implementation decide (no answer at all: not
    an overflow). Ordering: firstresult; the built-in answer (plugin ``provider_errors``: pi's
    ``isContextOverflow`` wording and usage rules) is ``trylast``, so a plugin knowing its own
    provider's wording wins. If an implementation raises or returns anything but a bool or
    ``None``, the run stops with one error naming the plugin and the hook.

    Example::

        @hookimpl
        def context_overflow(message):
            return "context budget exhausted" in (message.get("errorMessage") or "") or None
    """
