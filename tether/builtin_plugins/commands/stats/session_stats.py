"""Session statistics: pi's ``get_session_stats`` and the compactions of a session.

:func:`session_stats` is pi's ``getSessionStats`` over the agent's messages (the context at the
leaf: after a compaction, the summary and what was kept): messages by role, tool calls, the
assistants' token usage and cost, and the context usage (``tokens``/``percent`` are ``None``
after a compaction until an assistant reports usage again). :func:`compaction_history` lists
every compaction entry of the file: when, tokens before, an estimate of the tokens after (the
context just after it), and the summarizer and its cost when the entry's ``details`` record them;
:func:`prune_history` lists the pruning stage's steps and :func:`economy_totals` adds up what
both freed and cost. ``tether session stats`` and the RPC ``get_session_stats`` command use
these.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tether.memory import context_usage

Count = Callable[[list[dict[str, Any]]], Sequence[int]]


def _number(value: Any) -> float:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def session_stats(
    messages: Sequence[dict[str, Any]],
    *,
    session_file: str | None,
    session_id: str,
    usage: dict[str, Any] | None,
) -> dict[str, Any]:
    """pi's ``SessionStats``; ``usage`` is :func:`context_usage_of` (``None``: left out)."""
    roles = [m.get("role") for m in messages]
    tool_calls = 0
    totals = {"input": 0.0, "output": 0.0, "cacheRead": 0.0, "cacheWrite": 0.0}
    cost = 0.0
    for message in messages:
        if message.get("role") != "assistant":
            continue
        content = message.get("content")
        blocks = content if isinstance(content, list) else []
        tool_calls += sum(1 for b in blocks if isinstance(b, dict) and b.get("type") == "toolCall")
        used = message.get("usage") if isinstance(message.get("usage"), dict) else {}
        for key in totals:
            totals[key] += _number(used.get(key))
        spent = used.get("cost") if isinstance(used.get("cost"), dict) else {}
        cost += _number(spent.get("total"))
    tokens = {key: _whole(value) for key, value in totals.items()}
    stats: dict[str, Any] = {
        "sessionFile": session_file,
        "sessionId": session_id,
        "userMessages": roles.count("user"),
        "assistantMessages": roles.count("assistant"),
        "toolCalls": tool_calls,
        "toolResults": roles.count("toolResult"),
        "totalMessages": len(messages),
        "tokens": {**tokens, "total": _whole(sum(totals.values()))},
        "cost": cost,
    }
    if usage is not None:
        stats["contextUsage"] = usage
    return stats


def _whole(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def context_usage_of(
    branch: Sequence[dict[str, Any]],
    messages: Sequence[dict[str, Any]],
    count: Count,
    context_window: int | None,
) -> dict[str, Any] | None:
    """pi's ``getContextUsage`` for a branch and its context messages."""
    if not context_window:
        return None
    counts = list(count(list(messages))) if messages else []
    return context_usage(branch, messages, counts, context_window)


def compaction_history(session: Any, count: Count) -> list[dict[str, Any]]:
    """Every compaction entry of ``session`` (file order): ``{id, timestamp, tokensBefore,
    tokensAfter, summarizer, fromHook}``; ``tokensAfter`` estimates the context right after
    the compaction (its summary and the kept messages) with ``count``."""
    out: list[dict[str, Any]] = []
    for entry in session.entries():
        if entry.get("type") != "compaction":
            continue
        messages = session.build_context(entry["id"]).messages
        details = entry.get("details") if isinstance(entry.get("details"), dict) else {}
        summarizer = details.get("summarizer") if isinstance(details, dict) else None
        cost = details.get("cost") if isinstance(details, dict) else None
        out.append(
            {
                "id": entry["id"],
                "timestamp": entry.get("timestamp"),
                "tokensBefore": entry.get("tokensBefore"),
                "tokensAfter": int(sum(count(list(messages)))) if messages else 0,
                "summarizer": summarizer if isinstance(summarizer, str) else None,
                "fromHook": bool(entry.get("fromHook")),
                "cost": cost if isinstance(cost, dict) else None,
            }
        )
    return out


PRUNE_TYPE = "tether.prune"  # the custom entries the pruning stage writes, one per step


def prune_history(session: Any) -> list[dict[str, Any]]:
    """Every prune step of ``session`` (file order): the ``tether.prune`` entries' data —
    ``{id, timestamp, through, entries, tokensBefore, tokensAfter, summarizer, model, usage,
    durationMs}``."""
    out: list[dict[str, Any]] = []
    for entry in session.entries():
        if entry.get("type") != "custom" or entry.get("customType") != PRUNE_TYPE:
            continue
        data = entry.get("data") if isinstance(entry.get("data"), dict) else {}
        out.append({"id": entry.get("id"), "timestamp": entry.get("timestamp"), **data})
    return out


def economy_totals(
    compactions: Sequence[dict[str, Any]], prunes: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    """What the compactions and prune steps cost and freed, in all: ``{events, tokensFreed,
    usage: {input, output}, durationMs}`` (a compaction without a recorded cost counts its
    tokens only)."""
    usage = {"input": 0, "output": 0}
    freed, duration = 0, 0.0
    records = [c.get("cost") or c for c in compactions] + list(prunes)
    for record in records:
        before, after = record.get("tokensBefore"), record.get("tokensAfter")
        if isinstance(before, (int, float)) and isinstance(after, (int, float)):
            freed += max(0, int(before) - int(after))
        used = record.get("usage") if isinstance(record.get("usage"), dict) else {}
        for key in usage:
            usage[key] += int(_number(used.get(key)))
        duration += float(_number(record.get("durationMs")))
    return {
        "events": len(records),
        "tokensFreed": freed,
        "usage": usage,
        "durationMs": round(duration, 1),
    }


def _tokens(tokens: dict[str, Any]) -> str:
    return (
        f"{tokens['input']} in, {tokens['output']} out, {tokens['cacheRead']} cache read, "
        f"{tokens['cacheWrite']} cache write ({tokens['total']} total)"
    )


def _roles(stats: dict[str, Any]) -> str:
    return (
        f"{stats['userMessages']} user, {stats['assistantMessages']} assistant, "
        f"{stats['toolResults']} tool results"
    )


def stats_text(stats: dict[str, Any], compactions: Sequence[dict[str, Any]]) -> str:
    """The human-readable form of ``tether session stats``: the context's figures, each
    followed by the whole file's (``stats["inFile"]``, every entry of every branch) if given."""
    whole = stats.get("inFile")
    lines = [
        f"session:    {stats['sessionId']}",
        f"file:       {stats['sessionFile'] or '(in memory)'}",
        f"messages:   {stats['totalMessages']} in context ({_roles(stats)})",
    ]
    if whole is not None:
        lines.append(f"            {whole['totalMessages']} in the file ({_roles(whole)})")
    lines.append(f"tool calls: {stats['toolCalls']} in context")
    if whole is not None:
        lines[-1] += f", {whole['toolCalls']} in the file"
    lines.append(f"tokens:     {_tokens(stats['tokens'])} in context")
    if whole is not None:
        lines.append(f"            {_tokens(whole['tokens'])} in the file")
    lines.append(f"cost:       ${stats['cost']:.4f} in context")
    if whole is not None:
        lines[-1] += f", ${whole['cost']:.4f} in the file"
    usage = stats.get("contextUsage")
    if usage is not None:
        if usage.get("tokens") is None:
            lines.append(
                f"context:    unknown since the last compaction / {usage['contextWindow']}"
            )
        else:
            lines.append(
                f"context:    {usage['tokens']} / {usage['contextWindow']} tokens "
                f"({usage['percent']:.1f}%)"
            )
    lines.append(f"compactions: {len(compactions)}")
    for c in compactions:
        who = c["summarizer"] or ("a plugin" if c["fromHook"] else "not recorded")
        lines.append(
            f"  {c['timestamp']}  {c['id']}  {c['tokensBefore']} → ~{c['tokensAfter']} tokens"
            f"  (summarizer: {who}){_cost(c.get('cost'))}"
        )
    prunes = stats.get("pruneSteps")
    if prunes is not None:
        lines.append(f"prune steps: {len(prunes)}")
        for p in prunes:
            lines.append(
                f"  {p['timestamp']}  {p['id']}  ~{p.get('tokensBefore')} → "
                f"~{p.get('tokensAfter')} tokens  ({len(p.get('entries') or [])} tool outputs "
                f"through {p.get('through')}){_cost(p)}"
            )
    totals = stats.get("economy")
    if totals is not None:
        usage = totals["usage"]
        lines.append(
            f"economy:    {totals['events']} events freed ~{totals['tokensFreed']} tokens; "
            f"summarizers used {usage['input']} in / {usage['output']} out, "
            f"{totals['durationMs'] / 1000:.2f} s"
        )
    return "\n".join(lines) + "\n"


def _cost(cost: Any) -> str:
    """``  [model M, ]I in / O out, T ms`` of a recorded cost (empty without one)."""
    if not isinstance(cost, dict):
        return ""
    usage = cost.get("usage") if isinstance(cost.get("usage"), dict) else {}
    model = f"model {cost['model']}, " if cost.get("model") else ""
    return (
        f"  {model}{usage.get('input', 0)} in / {usage.get('output', 0)} out, "
        f"{cost.get('durationMs', 0)} ms"
    )


__all__ = [
    "compaction_history",
    "context_usage_of",
    "economy_totals",
    "prune_history",
    "session_stats",
    "stats_text",
]
