"""Built-in plugin ``stats_commands``: ``tether session stats FILE [--json]``.

pi's ``get_session_stats`` for a session file (messages by role, tool calls, the assistants'
tokens and cost, the context usage at the leaf: all of the context, not of the file) plus the
same counts over every message of the file (``inFile``) and every compaction: when, tokens
before, an estimate of the tokens after, and the summarizer and its cost when the entry
records them; every prune step (``pruneSteps``) and the totals of both (``economy``)
(:mod:`.session_stats`, shared with the RPC ``get_session_stats`` command). The
context window is ``--window``, else the session model's (models.json), else 128000.
"""

from __future__ import annotations

import sys
from typing import Any

import typer

from tether.builtin_plugins.commands import SESSION_HELP, FileArg, JsonOpt, with_token_options
from tether.cli import command_group
from tether.hookspecs import hookimpl


@hookimpl
def register_commands(app: Any) -> None:
    group = command_group(app, "session", SESSION_HELP)

    @group.command("stats")
    @with_token_options("window", "counter")
    def stats_command(
        ctx: typer.Context, file: FileArg, as_json: JsonOpt = False, **token_options: Any
    ) -> None:
        """Messages, tool calls, tokens and cost (in context and in the file), context usage,
        every compaction and prune step, and what they cost."""
        from tether.builtin_plugins.commands.stats.compute import file_stats
        from tether.sessions import stats_text

        pm = ctx.find_root().obj
        stats = file_stats(pm, file, **token_options)
        if as_json:
            from tether.cli import json_text

            sys.stdout.write(json_text(stats, indent=1) + "\n")
            return
        sys.stdout.write(stats_text(stats, stats["compactions"]))
