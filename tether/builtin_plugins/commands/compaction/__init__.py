"""Built-in plugin ``compaction_commands``: ``tether session prepare`` (dry run of a compaction).

``prepare FILE --keep K --reserve R [--window W] [--leaf ID] [--json]`` asks the chosen
compaction strategy (``--strategy``, ``compaction.strategy``, else pi's) what a compaction of
the branch would do — where the kept part
starts, what gets summarized, the file lists — without calling a model. ``--json`` uses the
oracle's field names so the output compares directly with pi's goldens.

``compact`` and ``branch`` write the session: they hold its lease while they work, and take
``--wait [SECONDS]`` (see ``_lease_cli``).

Each command is one function plus one line in :func:`register_commands`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from tether.builtin_plugins.commands import (
    FileArg,
    JsonOpt,
    LeafOpt,
    PlainJsonOpt,
    add_session_commands,
    open_session_file,
    switch,
    with_token_options,
)
from tether.cli import WaitOpt
from tether.hookspecs import hookimpl

StrategyOpt = Annotated[
    str | None,
    typer.Option(
        "--strategy", help="Compaction strategy by name (default: the compaction.strategy setting)."
    ),
]


def open_branch(file: Path, leaf: str | None) -> tuple[Any, str | None, list[dict[str, Any]]]:
    """Open ``file`` read-only; return ``(session, leaf_id, root-first branch)``.

    ``leaf`` is an entry id, ``"null"`` (before the first entry) or ``None`` (the file's leaf).
    Read-only: an old-format file is migrated in memory, never rewritten by a dry run.
    """
    from tether.cli import UsageError

    session = open_session_file(file)
    if leaf is None:
        leaf_id = session.leaf_id
    elif leaf == "null":
        leaf_id = None
    elif not session.has_entry(leaf):
        raise UsageError(f"{file}: --leaf: no entry with id '{leaf}'")
    else:
        leaf_id = leaf
    branch = [] if leaf_id is None else session.get_branch(leaf_id)
    return session, leaf_id, branch


def write_json(value: Any) -> None:
    """``JSON.stringify(value)`` on stdout (orjson where exact, see
    :mod:`tether.builtin_plugins.storage.format.fastjson`); lone surrogates (cut UTF-16 strings)
    are written as
    ``\\udXXX``, as JavaScript writes them. A ``RawJson`` value (``preview``) is written as it
    is."""
    pieces: list[bytes] = []
    _json_pieces(value, pieces)
    pieces.append(b"\n")
    sys.stdout.flush()
    sys.stdout.buffer.writelines(pieces)
    sys.stdout.buffer.flush()


def _json_pieces(value: Any, out: list[bytes]) -> None:
    """``value``'s JSON, appended to ``out`` in pieces: a dict field by field (a lone surrogate
    in one text sends only that field the slow way, a big text is not searched for numbers)."""
    from tether.builtin_plugins.commands.compaction.preview import RawJson
    from tether.builtin_plugins.storage.format.stringify import dumps_bytes

    if value.__class__ is RawJson:
        out.extend(value.pieces)
    elif value.__class__ is dict and all(k.__class__ is str and not k[:1].isdigit() for k in value):
        # no index key: JS writes the fields in insertion order
        out.append(b"{")
        for i, (key, item) in enumerate(value.items()):
            out.append(b"," + dumps_bytes(key) + b":" if i else dumps_bytes(key) + b":")
            _json_pieces(item, out)
        out.append(b"}")
    else:
        out.append(dumps_bytes(value))


@with_token_options("keep", "reserve", "window", "counter")
def prepare_command(
    ctx: typer.Context,
    file: FileArg,
    leaf: LeafOpt = None,
    as_json: JsonOpt = False,
    quiet: switch("--quiet", help="Counts instead of id lists, no serialized text.") = False,
    strategy: StrategyOpt = None,
    **token_options: Any,
) -> None:
    """Dry run of a compaction: where it would cut and what it would summarize."""
    import gc

    gc.disable()  # one short-lived pass over a possibly huge file: no cycles worth collecting
    from tether.builtin_plugins.commands.budgets import branch_model, session_window
    from tether.builtin_plugins.commands.compaction.preview import prepare_report, render_prepare

    _, _, branch = open_branch(file, leaf)
    window = token_options.pop("window")
    tokens = session_window(ctx.obj, branch_model(branch), window).tokens
    report = prepare_report(
        ctx.obj,
        branch,
        **token_options,
        window=tokens,
        quiet=quiet,
        strategy=strategy,
        encoded=as_json,
    )
    if as_json:
        write_json(report)
    else:
        sys.stdout.write(render_prepare(report, file, tokens, report["settings"]["reserveTokens"]))


# -- compact and branch (they write the session file) --------------------------------------------

InstructionsOpt = Annotated[
    str | None,
    typer.Option(
        "--instructions", help="Extra focus for the summary (after compaction.instructions)."
    ),
]
SummarizerOpt = Annotated[
    str | None,
    typer.Option("--summarizer", help="A summarizer by name: llm, offline, a plugin's."),
]


def _settings_with(**compaction: Any) -> Any:
    """The settings of the current project, with command-line overrides of ``compaction``."""
    from tether import load_settings

    overrides = {k: v for k, v in compaction.items() if v is not None}
    return load_settings(overrides={"compaction": overrides} if overrides else None)


def _nothing_line(reason: str | None) -> str:
    """``nothing to compact: <why>``, without repeating a reason that already says so."""
    lead = "Nothing to compact"
    why = (reason or "").strip()
    if why.startswith(lead):
        why = why[len(lead) :].lstrip(": ")
    if not why:
        return "nothing to compact"
    return f"nothing to compact {why}" if why.startswith("(") else f"nothing to compact: {why}"


def _summarizer_line(name: str, summaries: list[Any]) -> str:
    models = [s.details.get("model") for s in summaries if isinstance(s.details, dict)]
    models = [m for m in dict.fromkeys(models) if m]
    return f"{name} ({', '.join(models)})" if models else name


def _summary_json(s: Any) -> dict[str, Any]:
    return {"summarizer": s.summarizer, "details": s.details, "replyProblem": s.reply_problem}


def _warn_or_fail_if_cancelled(outcome: Any, what: str) -> None:
    """Print the outcome's warnings; a plugin's ``Cancel`` is an error naming its reason."""
    from tether import TetherError

    for warning in outcome.warnings:
        sys.stderr.write(f"tether: warning: {warning}\n")
    if outcome.status == "cancelled":
        raise TetherError(f"{what} cancelled by a plugin: {outcome.reason}")


@with_token_options("keep", "reserve")
def compact_command(
    ctx: typer.Context,
    file: FileArg,
    instructions: InstructionsOpt = None,
    summarizer: SummarizerOpt = None,
    as_json: PlainJsonOpt = False,
    wait: WaitOpt = None,
    strategy: StrategyOpt = None,
    **token_options: Any,
) -> None:
    """Compact the session: summarize the older part of the branch into a compaction entry."""
    from tether import Hooks, compact
    from tether.builtin_plugins.commands.compaction.progress import StderrProgress
    from tether.builtin_plugins.commands.lease_options import holding
    from tether.memory import check_choices, gate_line

    settings = _settings_with(
        summarizer=summarizer,
        strategy=strategy,
        keepRecentTokens=token_options["keep"],
        reserveTokens=token_options["reserve"],
    )
    check_choices(ctx.obj, settings, summarizer=summarizer, strategy=strategy)  # before work
    with holding(file, wait), StderrProgress() as progress:
        session = open_session_file(file, readonly=False)
        outcome = compact(
            session, Hooks(ctx.obj), settings, custom_instructions=instructions, progress=progress
        )
    _warn_or_fail_if_cancelled(outcome, f"{file}: compaction")
    if as_json:
        write_json(
            {
                "status": outcome.status,
                "reason": outcome.reason or None,
                "entry": outcome.entry,
                "summarizer": outcome.summarizer or None,
                "fromHook": outcome.from_hook,
                "gate": outcome.gate,
                "summaries": [_summary_json(s) for s in outcome.summaries],
                "warnings": outcome.warnings,
            }
        )
        return
    if outcome.status == "nothing":
        typer.echo(f"{file}: {_nothing_line(outcome.reason)}")
        return
    entry = outcome.entry or {}
    typer.echo(
        f"{file}: compacted into entry {entry.get('id')} "
        f"(summarizer: {_summarizer_line(outcome.summarizer, outcome.summaries)})\n"
        f"  tokens before: {entry.get('tokensBefore')}; kept verbatim from "
        f"{entry.get('firstKeptEntryId')}"
    )
    if outcome.gate is not None:
        typer.echo(f"  {gate_line(outcome.gate)}")


def branch_command(
    ctx: typer.Context,
    file: FileArg,
    to: Annotated[str, typer.Option("--to", metavar="ID", help="Entry to move the leaf to.")],
    summarize: switch("--summarize", help="Summarize the branch being left.") = False,
    instructions: InstructionsOpt = None,
    label: Annotated[
        str | None, typer.Option("--label", help="Label for the new position.")
    ] = None,
    summarizer: SummarizerOpt = None,
    as_json: PlainJsonOpt = False,
    wait: WaitOpt = None,
) -> None:
    """Move the session's leaf to another entry, optionally summarizing the branch left."""
    from tether import Hooks, navigate_tree
    from tether.builtin_plugins.commands.compaction.progress import StderrProgress
    from tether.builtin_plugins.commands.lease_options import holding
    from tether.cli import UsageError
    from tether.memory import check_choices

    for flag, value in (("--instructions", instructions), ("--summarizer", summarizer)):
        if value and not summarize:
            raise UsageError(f"{flag} needs --summarize")
    settings = _settings_with(summarizer=summarizer)
    if summarize:
        check_choices(ctx.obj, settings, summarizer=summarizer)
    with holding(file, wait), StderrProgress() as progress:
        session = open_session_file(file, readonly=False)
        outcome = navigate_tree(
            session,
            Hooks(ctx.obj),
            settings,
            to,
            summarize=summarize,
            custom_instructions=instructions,
            label=label,
            progress=progress,
            skip_empty_summary=True,
        )
    _warn_or_fail_if_cancelled(outcome, f"{file}: navigation")
    if as_json:
        write_json(
            {
                "status": outcome.status,
                "oldLeafId": outcome.old_leaf_id,
                "newLeafId": outcome.new_leaf_id,
                "commonAncestorId": outcome.common_ancestor_id,
                "abandonedEntryIds": outcome.abandoned_entry_ids,
                "summaryEntry": outcome.summary_entry,
                "noSummary": outcome.no_summary or None,
                "labelEntry": outcome.label_entry,
                "editorText": outcome.editor_text,
                "summarizer": outcome.summarizer or None,
                "fromHook": outcome.from_hook,
                "warnings": outcome.warnings,
            }
        )
        return
    if outcome.status == "noop":
        typer.echo(f"{file}: already at {to}")
        return
    lines = [f"{file}: leaf moved from {outcome.old_leaf_id} to {outcome.new_leaf_id}"]
    if outcome.summary_entry is not None:
        lines.append(
            f"  branch summary {outcome.summary_entry['id']} of "
            f"{len(outcome.abandoned_entry_ids)} entries (summarizer: {outcome.summarizer})"
        )
    elif summarize:
        lines.append(f"  no summary: {outcome.no_summary or 'nothing was abandoned'}")
    if outcome.label_entry is not None:
        labelled = outcome.label_entry
        lines.append(f"  label '{labelled.get('label')}' on {labelled.get('targetId')}")
    if outcome.editor_text:
        lines.append(f"  re-opened message: {outcome.editor_text[:200]}")
    typer.echo("\n".join(lines))


@hookimpl
def register_commands(app: typer.Typer) -> None:
    add_session_commands(
        app, prepare=prepare_command, compact=compact_command, branch=branch_command
    )


__all__ = ["open_branch", "register_commands", "write_json"]
