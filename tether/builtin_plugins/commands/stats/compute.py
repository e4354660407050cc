"""``tether session stats``' numbers for a session file (see the plugin's doc)."""

from __future__ import annotations

from typing import Any

from tether.builtin_plugins.commands import DEFAULT_WINDOW, open_session_file


def model_window(pm: Any, model: dict[str, Any] | None) -> int:
    """The context window of the session's model, if models.json knows it."""
    if not model or not model.get("provider") or not model.get("modelId"):
        return DEFAULT_WINDOW
    from tether.builtin_plugins.providers.models.registry import ProviderRegistry

    try:
        with ProviderRegistry(pm) as registry:
            found, _ = registry.resolve(provider=model["provider"], model=model["modelId"])
    except Exception:  # noqa: BLE001 - an unknown provider or model: the default window
        return DEFAULT_WINDOW
    return int(found.context_window or DEFAULT_WINDOW)


def file_stats(pm: Any, file: Any, window: int | None, counter: str | None) -> dict[str, Any]:
    """``{...pi's SessionStats (the context at the leaf), compactions: [...], inFile: {...}}``
    for a session file."""
    from tether.memory import token_counter
    from tether.sessions import (
        compaction_history,
        context_usage_of,
        economy_totals,
        prune_history,
        session_stats,
    )

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
    stats["pruneSteps"] = prune_history(session)
    stats["economy"] = economy_totals(stats["compactions"], stats["pruneSteps"])
    stats["inFile"] = file_totals(session)
    return stats


def file_totals(session: Any) -> dict[str, Any]:
    """The message counts, tokens and cost of every message entry of the file (all branches,
    compacted ones too), as ``tether session show`` counts; pi's figures are the context's."""
    from tether.sessions import session_stats

    messages = [
        e["message"]
        for e in session.entries()
        if e.get("type") == "message" and isinstance(e.get("message"), dict)
    ]
    whole = session_stats(messages, session_file=None, session_id="", usage=None)
    keys = ("totalMessages", "userMessages", "assistantMessages", "toolResults", "toolCalls")
    return {k: whole[k] for k in (*keys, "tokens", "cost")}


__all__ = ["file_stats", "file_totals", "model_window"]
