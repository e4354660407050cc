"""The dry run of ``tether session prepare``: what a compaction would do, as JSON or text."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class RawJson:
    """A value already written as JSON (UTF-8, in pieces): ``write_json`` copies it as it is."""

    pieces: list[bytes]


def prepare_report(
    pm: Any,
    branch: list[dict[str, Any]],
    *,
    keep: int | None,
    reserve: int | None,
    window: int,
    quiet: bool = False,
    strategy: str | None = None,
    counter: str | None = None,
    encoded: bool = False,
) -> dict[str, Any]:
    """The ``prepare`` JSON for a branch, from the chosen compaction strategy
    (``strategy``, else ``compaction.strategy``, else pi's) and token counter, with the
    settings ``session compact`` would use (``keep``/``reserve`` override them when given).

    ``quiet`` (as the oracle's ``--quiet``): id lists become their lengths, no serialized text.
    ``encoded``: the serialized texts are :class:`RawJson` (their JSON, built without the
    texts themselves: see :mod:`~tether.builtin_plugins.memory.serialize_json`).
    """
    from tether.builtin_plugins.commands.budgets import compaction_budget, settings_json
    from tether.builtin_plugins.memory.pi_strategy.prepare import tokens_before
    from tether.builtin_plugins.memory.serialize import serialize_messages
    from tether.hookspecs.events import NothingToCompact
    from tether.memory import file_lists, run_strategy, should_compact, token_counter

    settings = compaction_budget(keep=keep, reserve=reserve, strategy=strategy)
    model = {"contextWindow": window}
    count = token_counter(pm, model=model, flag=counter)
    result = run_strategy(pm, branch, settings, count, model=model, flag=strategy)
    if isinstance(result, NothingToCompact):
        reason = result.reason
        context_size = tokens_before(branch, count)
        return {
            "reason": reason,
            "tokensBefore": context_size,
            "shouldCompact": should_compact(context_size, window, settings),
            "window": window,
            "settings": settings_json(settings),
        }
    read_files, modified_files = file_lists(result.file_ops)
    report: dict[str, Any] = {
        "firstKeptEntryId": result.first_kept_entry_id,
        "isSplitTurn": result.is_split_turn,
        "tokensBefore": result.tokens_before,
        "previousSummary": result.previous_summary,
        "summarizedEntryIds": result.summarized_entry_ids,
        "turnPrefixEntryIds": result.turn_prefix_entry_ids,
        "readFiles": read_files,
        "modifiedFiles": modified_files,
        "serialized": None,
        "shouldCompact": should_compact(result.tokens_before, window, settings),
        "strategy": result.strategy,
        "window": window,
        "settings": settings_json(settings),
    }
    if quiet:
        for key in ("summarizedEntryIds", "turnPrefixEntryIds", "readFiles", "modifiedFiles"):
            report[key] = len(report[key])
        del report["serialized"]
    elif encoded:
        from tether.builtin_plugins.memory.serialize_json import serialized_json

        report["serialized"] = {
            "summarizeText": RawJson(serialized_json(result.messages_to_summarize)),
            "turnPrefixText": RawJson(serialized_json(result.turn_prefix_messages)),
        }
    else:
        report["serialized"] = {
            "summarizeText": serialize_messages(result.messages_to_summarize),
            "turnPrefixText": serialize_messages(result.turn_prefix_messages),
        }
    return report


def render_prepare(report: dict[str, Any], file: Path, window: int, reserve: int) -> str:
    """A few lines for people: what a compaction would do."""
    due = "yes" if report["shouldCompact"] else "no"
    threshold = f"window {window} - reserve {reserve} = {window - reserve}"
    if "reason" in report:
        return (
            f"{file}: {report['reason']}\n"
            f"  context: {report['tokensBefore']} tokens; compaction due: {due} ({threshold})\n"
        )

    def size(key: str) -> int:
        value = report[key]
        return value if isinstance(value, int) else len(value)

    lines = [
        f"{file}: compaction preview (dry run, no model call)",
        f"  context:        {report['tokensBefore']} tokens; compaction due: {due} ({threshold})",
        f"  first kept:     {report['firstKeptEntryId']}",
        f"  summarize:      {size('summarizedEntryIds')} messages",
    ]
    if report["isSplitTurn"]:
        lines.append(f"  split turn:     prefix of {size('turnPrefixEntryIds')} messages")
    if report["previousSummary"]:
        lines.append(f"  previous summary: {len(report['previousSummary'])} chars, updated")
    lines.append(f"  files:          {size('readFiles')} read, {size('modifiedFiles')} modified")
    return "\n".join(lines) + "\n"


__all__ = ["RawJson", "prepare_report", "render_prepare"]
