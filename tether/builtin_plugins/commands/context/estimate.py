"""``tether session estimate``: pi's per-entry token estimates, the usage-anchored size of the
context and the compaction threshold test, with the window of the session's model and the
``compaction`` settings (:mod:`tether.builtin_plugins.commands.budgets`) unless flags say
otherwise. ``--json`` uses the field names of pi's oracle."""

from __future__ import annotations

from typing import Any


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
    from tether import build_context_from_path
    from tether.builtin_plugins.commands.context.threshold import threshold_check
    from tether.builtin_plugins.memory import context_usage as usage
    from tether.memory import calculate_context_tokens, message_from_entry, token_counter

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
    estimate = usage.estimate_context_tokens(context.messages, context_counts)
    last_usage = usage.get_last_assistant_usage(branch)
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
            calculate_context_tokens(last_usage) if last_usage is not None else None
        ),
        "contextUsage": usage.context_usage(branch, context.messages, context_counts, window),
        "checkCompaction": threshold_check(
            branch, context.messages, context_counts, window, settings
        ),
    }


def session_estimate(
    pm: Any,
    session: Any,
    leaf_id: str | None,
    *,
    window: int | None,
    reserve: int | None,
    keep: int | None,
    counter: str | None = None,
) -> dict[str, Any]:
    """The report for ``session`` at ``leaf_id``: flags win; else the session model's window
    and the settings' budgets."""
    from tether.builtin_plugins.commands.budgets import (
        branch_model,
        compaction_budget,
        session_window,
        settings_json,
    )

    branch = session.get_branch(leaf_id) if leaf_id is not None else []
    budget = compaction_budget(keep=keep, reserve=reserve)
    return estimate_report(
        pm,
        entries=session.entries(),
        branch=branch,
        leaf_id=leaf_id,
        window=session_window(pm, branch_model(branch), window).tokens,
        settings=settings_json(budget),
        counter=counter,
    )


__all__ = ["estimate_report", "session_estimate"]
