"""Session hooks: lifecycle, compaction and tree navigation events, fork, storage backends."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tether.hookspecs import hookspec
from tether.hookspecs.session_protocol import HookSession

if TYPE_CHECKING:  # annotations only (the events are imported when a plugin asks for them)
    from tether.core.base.settings import Settings
    from tether.hookspecs.events import (
        BeforeCompactEvent,
        BeforeForkEvent,
        BeforeTreeEvent,
        Cancel,
        CompactEvent,
        CustomBranchSummary,
        CustomCompaction,
        Message,
        TreeEvent,
    )
    from tether.hookspecs.store import SessionStore


@hookspec
def session_start(session: HookSession, reason: str) -> None:
    """A session became active.

    When: after a session is opened or created for an agent (``reason`` is ``"startup"``,
    ``"new"``, ``"resume"`` or ``"fork"``). Arguments: ``session`` — the
    :class:`tether.HookSession`; ``reason``. Return: ignored. Ordering: notify, all run.

    Example::

        @hookimpl
        def session_start(session, reason):
            print("working in", session.file)
    """


@hookspec
def session_shutdown(session: HookSession, reason: str) -> None:
    """A session is being left (``reason``: ``"quit"``, ``"new"``, ``"resume"``, ``"fork"``).

    When: before the harness switches away from or closes a session. Arguments: ``session``,
    ``reason``. Return: ignored. Ordering: notify, all run.

    Example::

        @hookimpl
        def session_shutdown(session, reason):
            flush_my_cache()
    """


@hookspec
def context_warnings(session: HookSession, messages: list[Message]) -> list[str] | None:
    """Warn about a session's context as it is loaded into the agent (nothing is changed).

    When: each time the harness binds a session (start, ``/new``, ``/resume``, ``/fork``,
    ``/clone``), after the context is built and before any turn runs; session commands do not
    call it. Arguments: ``session`` — the :class:`tether.HookSession` being bound (its
    ``table`` and ``branch_ids()`` give line numbers when the store has them);
    ``messages`` — the context's messages, as the agent will send them (read-only).
    Return: one line per warning (``FILE:LINE: field: problem`` by convention), printed on
    stderr once each; ``None`` or ``[]`` for none. A plugin that raises or answers something
    else fails the binding, naming the plugin. Ordering: every implementation is called, in
    pluggy's order (installed plugins before the built-ins); the lines follow that order. The
    built-in (plugin ``context_check``) names malformed messages (what a request repairs or
    leaves out, ``tether.rules.message_issues``) and non-finite usage numbers.

    Example::

        @hookimpl
        def context_warnings(session, messages):
            if len(messages) > 1000:
                return [f"{session.file}: {len(messages)} messages in the context"]
    """


@hookspec(firstresult=True)
def session_before_compact(
    event: BeforeCompactEvent, session: HookSession
) -> Cancel | CustomCompaction | None:
    """Cancel a compaction or supply it yourself (pi's ``session_before_compact``).

    When: after the strategy prepared a compaction, before any summarizer runs.
    Arguments: ``event.preparation`` (what would be summarized and kept),
    ``event.branch_entries`` (the active path), ``event.custom_instructions`` (the setting
    ``compaction.instructions``, then a manual compaction's own; a plugin may change them),
    ``event.reason`` (``manual``/``threshold``/``overflow``); ``session``.
    Return: :class:`Cancel` — nothing is written; :class:`CustomCompaction` — written verbatim
    with ``fromHook: true``; ``None`` — the default summarizer runs. Ordering: firstresult,
    third-party plugins first.

    Example::

        @hookimpl
        def session_before_compact(event):
            if event.reason == "threshold" and on_battery():
                return Cancel("not now")
    """


@hookspec
def session_compact(event: CompactEvent, session: HookSession) -> None:
    """A compaction entry was written (``event.entry``; ``event.from_hook`` if a plugin made it).

    When: right after the entry is durably appended, before the context is rebuilt.
    Arguments: ``event``, ``session``. Return: ignored. Ordering: notify, all run.

    Example::

        @hookimpl
        def session_compact(event):
            print("compacted", event.entry["tokensBefore"], "tokens")
    """


@hookspec(firstresult=True)
def session_before_tree(
    event: BeforeTreeEvent, session: HookSession
) -> Cancel | CustomBranchSummary | None:
    """Cancel a tree navigation or supply the branch summary (pi's ``session_before_tree``).

    When: before the leaf moves to ``event.target_id``, after the abandoned entries were
    collected. Arguments: ``event`` (target, old leaf, common ancestor, entries to summarize,
    whether a summary was asked for, instructions — the setting ``compaction.instructions``,
    then the navigation's own — and whether they replace the built-in prompt, label; a plugin
    may change the last three); ``session``.
    Return: :class:`Cancel`, :class:`CustomBranchSummary` (used instead of the summarizer,
    written with ``fromHook: true``) or ``None``. Ordering: firstresult.

    Example::

        @hookimpl
        def session_before_tree(event):
            if event.summarize:
                return CustomBranchSummary(summary="Tried approach A; abandoned.")
    """


@hookspec
def session_tree(event: TreeEvent, session: HookSession) -> None:
    """The leaf moved (``event.new_leaf_id``), possibly with a branch summary entry.

    When: after navigation and any summary entry are persisted. Arguments: ``event``,
    ``session``. Return: ignored. Ordering: notify.

    Example::

        @hookimpl
        def session_tree(event):
            print("now at", event.new_leaf_id)
    """


@hookspec(firstresult=True)
def session_before_fork(event: BeforeForkEvent, session: HookSession) -> Cancel | None:
    """Cancel a fork or clone.

    When: before ``/fork`` (``position="before"`` a user message) or ``/clone`` / ``tether session
    clone`` (``position="at"`` an entry) writes a new session. Arguments: ``event``, ``session``.
    Return: :class:`Cancel` to stop, ``None`` to go on. Ordering: firstresult.

    Example::

        @hookimpl
        def session_before_fork(event):
            return Cancel("forks are disabled in this repository")
    """


@hookspec(firstresult=True)
def open_store(uri: str, settings: Settings) -> SessionStore | None:
    """Open the storage backend for a session.

    When: whenever a session is opened or created, and when a command is given a store
    (``--store URI``, ``TETHER_STORE``, setting ``session.store``). Arguments: ``uri`` — a file
    path or a backend URI (``sqlite:///…``, ``postgresql://…``); ``settings`` — the resolved
    :class:`tether.Settings` (``None`` for a library call that gives none). Return: for one
    session, an object implementing :class:`tether.storage.SessionStore` (docs/plugins.md,
    "Writing a store plugin"; ``tether.storage.check_store`` checks one); ``None`` for URIs
    this plugin does not handle. (The built-in SQL stores answer a URI of many sessions with a
    database of them, an interface that is not public yet.) Raise
    ``tether.storage.StoreError`` with one line for a URI it handles but cannot open (bad URI,
    server down, login refused, another schema version). The kernel opens every session's
    store through this hook (``tether.storage.open_store``).
    Ordering: firstresult; the built-in JSONL store is ``trylast`` and answers for plain
    paths; the built-in ``sqlite_store`` and ``postgresql_store`` answer for their schemes.

    Example::

        @hookimpl
        def open_store(uri, settings):
            if uri.startswith("sqlite://"):
                return SqliteStore(uri)
    """
