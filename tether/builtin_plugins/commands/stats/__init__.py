"""Built-in plugin ``stats_commands``: ``tether session stats FILE [--json]``.

pi's ``get_session_stats`` for a session file (messages by role, tool calls, the assistants'
tokens and cost, the context usage at the leaf) plus every compaction: when, tokens before, an
estimate of the tokens after, and the summarizer when the entry records it
(:mod:`tether.core.session.stats`, shared with the RPC ``get_session_stats`` command). The
context window is ``--window``, else the session model's (models.json), else 128000.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from tether.builtin_plugins.commands import (
    DEFAULT_WINDOW,
    SESSION_HELP,
    CounterOpt,
    FileArg,
    JsonOpt,
    open_session_file,
)
from tether.core.host.cli import command_group
from tether.hookspecs import hookimpl


def model_window(pm: Any, model: dict[str, Any] | None) -> int:
    """The context window of the session's model, if models.json knows it."""
    if not model or not model.get("provider") or not model.get("modelId"):
        return DEFAULT_WINDOW
    from tether.core.agent.provider_registry import ProviderRegistry

    try:
        with ProviderRegistry(pm) as registry:
            found, _ = registry.resolve(provider=model["provider"], model=model["modelId"])
    except Exception:  # noqa: BLE001 - an unknown provider or model: the default window
        return DEFAULT_WINDOW
    return int(found.context_window or DEFAULT_WINDOW)


def file_stats(pm: Any, file: Any, window: int | None, counter: str | None) -> dict[str, Any]:
    """``{...pi's SessionStats, compactions: [...]}`` for a session file."""
    from tether.core.memory.choice_calls import token_counter
    from tether.core.session.stats import compaction_history, context_usage_of, session_stats

    session = open_session_file(file)
    context = session.build_context()
    count = token_counter(pm, model=context.model, flag=counter)
    window = window or model_window(pm, context.model)
    messages = list(context.messages)
    usage = context_usage_of(session.get_branch(), messages, count, window)
    stats = session_stats(
        messages, session_file=str(file), session_id=session.session_id, usage=usage
    )
    stats["compactions"] = compaction_history(session, count)
    return stats


@hookimpl
def register_commands(app: Any) -> None:
    group = command_group(app, "session", SESSION_HELP)

    @group.command("stats")
    def stats_command(
        ctx: typer.Context,
        file: FileArg,
        as_json: JsonOpt = False,
        window: Annotated[
            int | None, typer.Option("--window", help="Context window (default: the model's).")
        ] = None,
        counter: CounterOpt = None,
    ) -> None:
        """Messages, tool calls, tokens, cost, context usage and every compaction."""
        from tether.core.session.stats import stats_text

        pm = ctx.find_root().obj
        stats = file_stats(pm, file, window, counter)
        if as_json:
            from tether.core.context.numbers import json_text

            sys.stdout.write(json_text(stats, indent=1) + "\n")
            return
        sys.stdout.write(stats_text(stats, stats["compactions"]))
