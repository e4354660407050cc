"""``tether session facts FILE [--json] [--all]``: the fact ledger in force at the leaf.

Each live fact with its id, kind, verbatim words, the entry it came from and the entries it
was first and last seen in; ``--all`` adds the retired facts (with what replaced them), the
resolved errors and the facts dropped for size. ``tether session pin FILE FACT_ID`` pins a
fact's words (:mod:`.pins`).
"""

from __future__ import annotations

import json
import sys
from typing import Any

import typer

from tether.builtin_plugins.commands import (
    FileArg,
    PlainJsonOpt,
    add_session_commands,
    json_fields,
    open_session_file,
    switch,
)
from tether.hookspecs import hookimpl

AllOpt = switch("--all", help="Also list retired, resolved and dropped facts.")
PREVIEW = 120


def session_ledger(session: Any) -> Any:
    """The ledger at the session's leaf (built-in cue tables plus the plugins')."""
    from tether.builtin_plugins.memory.fact_ledger import branch_ledger

    return branch_ledger(session.get_branch(), _plugin_cues())


def _plugin_cues() -> dict[str, Any]:
    try:
        from tether import create_plugin_manager
        from tether.cli import collect_fact_cues

        return collect_fact_cues(create_plugin_manager())
    except Exception:  # a broken plugin never hides the built-in languages
        return {}


def _line(fact: Any) -> str:
    flat = " ".join(fact.text.split())
    shown = flat if len(flat) <= PREVIEW else flat[: PREVIEW - 1] + "…"
    where = f"entry {fact.source or '?'}"
    if fact.last_seen and fact.last_seen != fact.first_seen:
        where += f", first seen {fact.first_seen}, last seen {fact.last_seen}"
    status = (
        ""
        if fact.live
        else f"  [{fact.status}" + (f" → {fact.replaced_by}]" if fact.replaced_by else "]")
    )
    return f"{fact.id}  {fact.kind:<10}  {shown}  ({where}){status}"


def facts_command(file: FileArg, as_json: PlainJsonOpt = False, show_all: AllOpt = False) -> None:
    """The facts the user stated, as the fact ledger holds them (live ones; --all: every one)."""
    ledger = session_ledger(open_session_file(file))
    facts = [f for f in ledger.facts if show_all or f.live]
    if as_json:
        out = [
            json_fields(
                f, "id kind text status source firstSeen lastSeen", optional="replacedBy replaces"
            )
            for f in facts
        ]
        value: Any = {"facts": out}
        if show_all:
            value["dropped"] = {"count": ledger.dropped_count, "recent": ledger.dropped}
        sys.stdout.write(json.dumps(value, ensure_ascii=False, indent=1) + "\n")
        return
    if not facts:
        typer.echo(f"{file}: no facts stated yet")
        return
    for fact in facts:
        typer.echo(_line(fact))
    if show_all and ledger.dropped_count:
        typer.echo(f"({ledger.dropped_count} fact(s) dropped for size; see --json)")


@hookimpl
def register_commands(app: typer.Typer) -> None:
    add_session_commands(app, facts=facts_command)


__all__ = ["facts_command", "register_commands", "session_ledger"]
