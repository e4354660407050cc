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
from types import SimpleNamespace
from typing import Annotated, Any

import typer

from tether.builtin_plugins import commands as opts
from tether.cli import command_group
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
    from tether.sessions import bulk

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
    from tether.cli import UsageError

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
    from tether.builtin_plugins.storage.format.stringify import dumps_bytes

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
) -> list[Any]:
    """The messages as installed plugins' ``context`` hooks leave them (unchanged if none)."""
    if not _has_context_hooks(pm):
        return context.messages  # type: ignore[no-any-return]
    from tether import Hooks
    from tether.core.hooks.plugin_session import PluginSession

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
    quiet: opts.switch(
        "--quiet", help="Build everything (messages, hooks, LLM form), print only counts."
    ) = False,
    request: opts.switch(
        "--request",
        help="The request body the session's provider would receive (not sent).",
    ) = False,
    provider: Annotated[
        str | None,
        typer.Option("--provider", help="With --request: this provider's model (as for run)."),
    ] = None,
    model: Annotated[
        str | None,
        typer.Option("--model", "-m", help="With --request: this model (id, or provider/model)."),
    ] = None,
) -> None:
    """Show the context the model sees at the leaf: messages and their LLM form."""
    if request:
        _request(ctx, file, leaf, _model_request(provider, model))
        return
    if provider is not None or model is not None:
        from tether.cli import UsageError

        raise UsageError("--provider and --model only apply with --request")
    with _without_cyclic_gc():
        _context(ctx, file, leaf, as_json, quiet)


def _model_request(provider: str | None, model: str | None) -> Any:
    """``--provider P --model M`` / ``--model P/M`` / ``--model ID`` / ``--provider P``, as
    ``run`` reads them."""
    from tether.cli import ModelRequest

    if provider:
        return ModelRequest(provider=provider, model=model)
    return ModelRequest(ref=model)


def _request(ctx: typer.Context, file: Path, leaf: str | None, model: Any) -> None:
    """``--request``: the exact bytes of the body (:mod:`.request`), one line."""
    import os

    from tether.builtin_plugins.commands.context.request import request_bytes

    session = _open(file)
    leaf_id = _resolve_leaf(session, leaf, file)
    body = request_bytes(ctx.obj, session, leaf_id, os.getcwd(), model=model)
    _report_problems(session, file)
    sys.stdout.flush()
    sys.stdout.buffer.write(body + b"\n")
    sys.stdout.buffer.flush()


def _has_context_hooks(pm: Any) -> bool:
    return pm is not None and bool(pm.hook.context.get_hookimpls())


def _context(ctx: typer.Context, file: Path, leaf: str | None, as_json: bool, quiet: bool) -> None:
    session = _open(file)
    leaf_id = _resolve_leaf(session, leaf, file)
    if not (as_json or quiet):
        _context_text(ctx, session, leaf_id, file)
        return
    from tether.builtin_plugins.storage.jsonl.context.batches import encode_context
    from tether.builtin_plugins.storage.jsonl.context.encoded import EncodedContext

    hooked = _has_context_hooks(ctx.obj)
    # parsed, encoded and dropped a batch at a time (hooks get the encoded messages as a list
    # that parses a message when a hook reads it)
    if leaf_id is None:
        encoded, thinking_level, model = EncodedContext([]), "off", None
    else:
        encoded, stream = encode_context(session, leaf_id, keep_items=hooked)
        thinking_level, model = stream.thinking_level, stream.model
    if hooked:
        context = SimpleNamespace(messages=encoded.items, model=model)
        messages = _after_context_hooks(ctx.obj, session, leaf_id, context, file)
        if not encoded.same_items(messages):
            encoded = EncodedContext(messages)
    _report_problems(session, file)
    summary = _summary(leaf_id, thinking_level, model, len(session), encoded)
    _write_context(session.header, summary, encoded, as_json, quiet)


def _summary(
    leaf_id: str | None, thinking_level: Any, model: Any, entries: int, encoded: Any
) -> dict[str, Any]:
    """The fields ``session context --json`` writes before the messages."""
    return {
        "leafId": leaf_id,
        "thinkingLevel": thinking_level,
        "model": model,
        "entryCount": entries,
        "messageCount": encoded.message_count,
        "llmMessageCount": encoded.llm_count,
    }


def _write_context(
    header: Any, summary: dict[str, Any], encoded: Any, as_json: bool, quiet: bool
) -> None:
    """The summary alone (``--quiet``), or all of it as one JSON line."""
    if quiet:
        _print_summary(summary, as_json)
    else:
        encoded.write({"header": header, **summary}, release=True)


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
    from tether import convert_to_llm
    from tether.builtin_plugins.commands.context.render import context_chunks

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


@opts.with_token_options("window", "reserve", "keep", "counter")
def estimate_command(
    ctx: typer.Context,
    file: opts.FileArg,
    leaf: opts.LeafOpt = None,
    as_json: opts.JsonOpt = False,
    **token_options: Any,
) -> None:
    """Per-entry token estimates, the context size and the compaction threshold test."""
    from tether.builtin_plugins.commands.context.estimate import session_estimate

    with _without_cyclic_gc():
        session = _open(file)
        leaf_id = _resolve_leaf(session, leaf, file)
        report = session_estimate(ctx.obj, session, leaf_id, **token_options)
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
