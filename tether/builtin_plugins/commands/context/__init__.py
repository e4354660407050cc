"""Built-in plugin ``context_commands``: ``tether session context`` and ``tether session estimate``.

``context FILE [--leaf ID|null]`` shows what the model would see at a leaf: the agent messages
of the branch and their LLM form. ``estimate FILE`` shows pi's per-entry token estimates and
the usage-anchored size of the context, with the compaction threshold test. ``--json`` output
uses the field names of pi's oracle, so it compares directly with pi's goldens.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from tether.builtin_plugins import commands as opts
from tether.core.host.cli import command_group
from tether.hookspecs import hookimpl

TEXT_PREVIEW = 240


def _open(path: Path) -> Any:
    """Open ``path`` read-only: legacy files are migrated in memory, never rewritten; an empty
    file is an error (:func:`~tether.builtin_plugins.commands.open_session_file`)."""
    return opts.open_session_file(path)


@contextmanager
def _without_cyclic_gc() -> Iterator[None]:
    """Entries are acyclic: full collections over 100k parsed entries would cost seconds.
    What the command loaded is frozen on the way out, so re-enabling the collector does not
    walk it once more (a third of a second for 100k entries) just before the process ends."""
    from tether.core.session.reader import bulk

    with bulk(freeze=True):
        yield


def _report_problems(session: Any, path: Path) -> None:
    """Skipped lines (with their line numbers) and notes, on stderr, after the work is done
    (entries are parsed lazily, so problems surface while reading)."""
    for problem in session.problems:
        sys.stderr.write(f"tether: warning: {path}:{problem.line}: {problem.message}\n")
    for note in session.notes:
        sys.stderr.write(f"tether: note: {path}: {note}\n")


def _resolve_leaf(session: Any, leaf: str | None, path: Path) -> str | None:
    """``--leaf`` → the leaf entry id (``None`` = before the first entry)."""
    from tether.core.host.errors import UsageError

    if leaf is None:
        return session.leaf_id
    if leaf == "null":
        return None
    if not session.has_entry(leaf):
        raise UsageError(f"{path}: --leaf: no entry with id '{leaf}'")
    return leaf


def _write_json(value: Any) -> None:
    """``JSON.stringify(value)`` on stdout (compact; lone surrogates as ``\\udXXX``,
    non-finite numbers as ``null``, as JavaScript writes them)."""
    from tether.core.storage.format import dumps_bytes

    out = sys.stdout
    out.flush()
    out.buffer.write(dumps_bytes(value) + b"\n")
    out.buffer.flush()


@contextmanager
def _batched(write: Callable[[Any], Any], empty: Any, size: int = 1 << 20) -> Iterator[Any]:
    """A ``write`` that hands ``write`` about ``size`` bytes (or characters) at a time: one
    system call per batch even when stdout is unbuffered (``PYTHONUNBUFFERED``, ``-u``)."""
    pending: list[Any] = []
    held = 0

    def add(data: Any) -> None:
        nonlocal held
        pending.append(data)
        held += len(data)
        if held >= size:
            write(empty.join(pending))
            pending.clear()
            held = 0

    yield add
    write(empty.join(pending))


def _after_context_hooks(
    pm: Any, session: Any, leaf_id: str | None, context: Any, file: Path
) -> list[dict[str, Any]]:
    """The messages as installed plugins' ``context`` hooks leave them (unchanged if none)."""
    if not _has_context_hooks(pm):
        return context.messages
    from tether.core.harness.plugin_session import PluginSession
    from tether.core.host.facade import Hooks

    hooks = Hooks(pm)
    branch = None  # the session's own branch: parsed only if a hook asks for it
    if leaf_id != session.leaf_id:
        branch = session.get_branch(leaf_id) if leaf_id is not None else []
    view = PluginSession.reading(session, hooks, context.model, branch=branch)
    failure = f"{file}: context hook failed"
    return hooks.context(messages=context.messages, session=view, failure=failure)


def context_command(
    ctx: typer.Context,
    file: opts.FileArg,
    leaf: opts.LeafOpt = None,
    as_json: opts.JsonOpt = False,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet", help="Build everything (messages, hooks, LLM form), print only counts."
        ),
    ] = False,
) -> None:
    """Show the context the model sees at the leaf: messages and their LLM form."""
    with _without_cyclic_gc():
        _context(ctx, file, leaf, as_json, quiet)


def _has_context_hooks(pm: Any) -> bool:
    return pm is not None and bool(pm.hook.context.get_hookimpls())


def _context(ctx: typer.Context, file: Path, leaf: str | None, as_json: bool, quiet: bool) -> None:
    session = _open(file)
    leaf_id = _resolve_leaf(session, leaf, file)
    if not (as_json or quiet):
        _context_text(ctx, session, leaf_id, file)
        return
    from tether.core.context.encoded import EncodedContext

    if _has_context_hooks(ctx.obj):  # the hooks need the messages as one list
        context = _hooked_context(ctx, session, leaf_id, file)
        encoded = EncodedContext(context.messages)
        thinking_level, model = context.thinking_level, context.model
    else:  # one message at a time: parsed, encoded, dropped

        def encode(stream: Any) -> tuple[EncodedContext, Any, Any]:
            return EncodedContext(stream), stream.thinking_level, stream.model

        if leaf_id is None:
            encoded, thinking_level, model = EncodedContext([]), "off", None
        else:
            encoded, thinking_level, model = session.stream_context(encode, leaf_id)
    _report_problems(session, file)
    summary = {
        "leafId": leaf_id,
        "thinkingLevel": thinking_level,
        "model": model,
        "entryCount": len(session),
        "messageCount": encoded.message_count,
        "llmMessageCount": encoded.llm_count,
    }
    if quiet:
        _print_summary(summary, as_json)
    else:
        encoded.write({"header": session.header, **summary})


def _hooked_context(ctx: typer.Context, session: Any, leaf_id: str | None, file: Path) -> Any:
    """The context at ``leaf_id`` as installed plugins' ``context`` hooks leave it."""
    context = session.build_context(leaf_id)
    hooked = _after_context_hooks(ctx.obj, session, leaf_id, context, file)
    if hooked is not context.messages:  # a plugin's context hook ran: show what it sends
        from dataclasses import replace

        context = replace(context, messages=hooked)
    return context


def _context_text(ctx: typer.Context, session: Any, leaf_id: str | None, file: Path) -> None:
    """The text form: one header line, then each message shortened."""
    from tether.builtin_plugins.commands.context.render import context_chunks
    from tether.core.context.build import convert_to_llm

    context = _hooked_context(ctx, session, leaf_id, file)
    llm_messages = convert_to_llm(context.messages)
    _report_problems(session, file)
    summary = {
        "leafId": leaf_id,
        "thinkingLevel": context.thinking_level,
        "model": context.model,
        "entryCount": len(session),
        "messageCount": len(context.messages),
        "llmMessageCount": len(llm_messages),
    }
    with _batched(sys.stdout.write, "") as write:
        for chunk in context_chunks(summary, context.messages, TEXT_PREVIEW):
            write(chunk)


def _print_summary(summary: dict[str, Any], as_json: bool) -> None:
    if as_json:
        _write_json(summary)
    else:
        typer.echo(
            f"entries {summary['entryCount']}  messages {summary['messageCount']}"
            f"  llm messages {summary['llmMessageCount']}"
        )


def estimate_report(
    pm: Any,
    *,
    entries: list[dict[str, Any]],
    branch: list[dict[str, Any]],
    leaf_id: str | None,
    window: int,
    settings: dict[str, Any],
    counter: str | None = None,
) -> dict[str, Any]:
    """The ``estimate`` JSON: per-entry estimates, the built context's size, threshold test.

    Token counts come from the chosen token counter (``counter``, else ``tokens.counter``,
    else pi's chars/4).
    """
    from tether.core.context import tokens
    from tether.core.context.build import build_context_from_path, message_from_entry
    from tether.core.memory.choice_calls import token_counter

    context = build_context_from_path(branch)
    model = None
    if context.model is not None:
        model = {
            "provider": context.model.get("provider"),
            "id": context.model.get("modelId"),
            "contextWindow": window,
        }
    rows: list[dict[str, Any]] = []
    counted_rows: list[dict[str, Any]] = []
    counted_messages: list[dict[str, Any]] = []
    for entry in entries:
        row: dict[str, Any] = {"id": entry.get("id"), "type": entry.get("type")}
        if entry.get("type") == "message":
            message = entry.get("message")
            if isinstance(message, dict) and "role" in message:
                row["role"] = message["role"]
        row["tokens"] = None
        message = message_from_entry(entry)
        if message is not None:
            counted_rows.append(row)
            counted_messages.append(message)
        rows.append(row)
    count_of = token_counter(pm, model=model, flag=counter)
    counts = count_of(counted_messages)
    for row, count in zip(counted_rows, counts, strict=True):
        row["tokens"] = count
    context_counts = count_of(context.messages)
    estimate = tokens.estimate_context_tokens(context.messages, context_counts)
    last_usage = tokens.get_last_assistant_usage(branch)
    return {
        "leafId": leaf_id,
        "window": window,
        "settings": settings,
        "entries": rows,
        "totalEntryTokens": sum(counts),
        "context": {
            "messageCount": len(context.messages),
            "messageTokens": context_counts,
            "estimateContextTokens": estimate,
        },
        "contextTokens": estimate["tokens"],
        "lastAssistantUsage": last_usage,
        "lastAssistantContextTokens": (
            tokens.calculate_context_tokens(last_usage) if last_usage is not None else None
        ),
        "contextUsage": tokens.context_usage(branch, context.messages, context_counts, window),
        "checkCompaction": tokens.threshold_check(
            branch, context.messages, context_counts, window, settings
        ),
    }


def estimate_command(
    ctx: typer.Context,
    file: opts.FileArg,
    window: Annotated[int, typer.Option("--window", help="Context window.")] = opts.DEFAULT_WINDOW,
    reserve: Annotated[
        int, typer.Option("--reserve", help="Tokens reserved for the answer.")
    ] = opts.DEFAULT_RESERVE,
    keep: Annotated[
        int, typer.Option("--keep", help="Recent tokens kept verbatim.")
    ] = opts.DEFAULT_KEEP,
    leaf: opts.LeafOpt = None,
    as_json: opts.JsonOpt = False,
    counter: opts.CounterOpt = None,
) -> None:
    """Per-entry token estimates, the context size and the compaction threshold test."""
    with _without_cyclic_gc():
        _estimate(ctx, file, window, reserve, keep, leaf, as_json, counter)


def _estimate(
    ctx: typer.Context,
    file: Path,
    window: int,
    reserve: int,
    keep: int,
    leaf: str | None,
    as_json: bool,
    counter: str | None = None,
) -> None:
    session = _open(file)
    leaf_id = _resolve_leaf(session, leaf, file)
    report = estimate_report(
        ctx.obj,
        entries=session.entries(),
        branch=session.get_branch(leaf_id) if leaf_id is not None else [],
        leaf_id=leaf_id,
        window=window,
        settings={"enabled": True, "reserveTokens": reserve, "keepRecentTokens": keep},
        counter=counter,
    )
    _report_problems(session, file)
    if as_json:
        _write_json(report)
        return
    from tether.builtin_plugins.commands.context.render import render_estimate

    sys.stdout.write(render_estimate(report))


@hookimpl
def register_commands(app: typer.Typer) -> None:
    group = command_group(app, "session", opts.SESSION_HELP)
    group.command("context")(context_command)
    group.command("estimate")(estimate_command)
