"""Feedback on long work in ``tether run``: retries, compactions and prune steps as lines on
stderr (each compaction and prune step with its cost: tokens before and after, the
summarizer, its model, its usage and its time).

stdout keeps only the answer; ``-q``/``--quiet`` (and ``--json``, whose events say it all)
leave stderr to errors. :class:`RunFeedback` also counts the attempts of a failed call, so the
final error can say how many were made.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO


def _seconds(delay_ms: Any) -> str:
    try:
        return f"{float(delay_ms) / 1000:.1f} s"
    except (TypeError, ValueError):
        return "a moment"


def _one_line(text: Any, limit: int = 160) -> str:
    flat = " ".join(str(text or "").split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class RunFeedback:
    """An event listener: one stderr line per retry and per compaction step (unless
    ``quiet``); :attr:`attempts` is the number of calls a failed prompt made (1 without
    retries)."""

    def __init__(self, err: TextIO | None = None, *, quiet: bool = False) -> None:
        self.err = err or sys.stderr
        self.quiet = quiet
        self.attempts = 1

    def say(self, text: str) -> None:
        if self.quiet:
            return
        try:
            self.err.write(f"tether: {text}\n")
            self.err.flush()
        except (OSError, ValueError):  # stderr went away: the work goes on
            self.quiet = True

    def __call__(self, event: Any) -> None:
        kind, data = event.type, event.data
        if kind == "auto_retry_start":
            self.attempts = int(data.get("attempt") or 0) + 1
            self.say(
                f"model call failed, retrying in {_seconds(data.get('delay_ms'))} "
                f"(retry {data.get('attempt')} of {data.get('max_attempts')}): "
                f"{_one_line(data.get('error_message'))}"
            )
        elif kind == "auto_retry_end":
            self.attempts = int(data.get("attempt") or 0) + 1
            if data.get("success"):
                self.say(f"the call succeeded on attempt {self.attempts}")
        elif kind == "compaction_start":
            self.say(f"compacting the context ({data.get('reason')})…")
        elif kind == "progress":
            self.say(f"  {_one_line(data.get('line'))}")
        elif kind == "compaction_end" and data.get("error_message"):
            self.say("compaction failed (the warning below says why)")
        elif kind == "compaction_end":
            self.say(compaction_outcome(data))
        elif kind == "context_pruned":
            self.say(pruned_line(data))


def cost_text(cost: dict[str, Any]) -> str:
    """``summarizer S (model M): I in / O out, T s`` of a ``details.cost`` record."""
    usage = cost.get("usage") or {}
    model = f" ({cost['model']})" if cost.get("model") else ""
    seconds = float(cost.get("durationMs") or 0) / 1000
    return (
        f"summarizer {cost.get('summarizer')}{model}: {usage.get('input', 0)} in / "
        f"{usage.get('output', 0)} out, {seconds:.2f} s"
    )


def pruned_line(data: dict[str, Any]) -> str:
    """One line for a ``context_pruned`` event (a step of the pruning stage): no model is
    asked, so only the time it took, not a summarizer's usage."""
    entries = data.get("entries") or []
    seconds = float(data.get("durationMs") or 0) / 1000
    return (
        f"pruned {len(entries)} old tool outputs: ~{data.get('tokensBefore')} → "
        f"~{data.get('tokensAfter')} tokens (through entry {data.get('through')}; "
        f"{seconds:.2f} s)"
    )


def compaction_outcome(data: dict[str, Any]) -> str:
    """One line for a ``compaction_end`` event."""
    entry = data.get("result")
    if entry:
        line = (
            f"compacted: {entry.get('tokensBefore')} tokens summarized into entry {entry.get('id')}"
        )
        details = entry.get("details") if isinstance(entry.get("details"), dict) else {}
        cost = details.get("cost")
        if isinstance(cost, dict):
            line += f" (→ ~{cost.get('tokensAfter')} tokens; {cost_text(cost)})"
        return line
    if data.get("error_message"):
        return f"compaction failed: {data['error_message']}"
    if data.get("aborted"):
        return "compaction cancelled"
    return nothing_compacted(data.get("message"))


def nothing_compacted(reason: Any) -> str:
    """``nothing to compact``, with the reason when it adds something (never twice)."""
    lead = "nothing to compact"
    why = str(reason or "").strip()
    if why.lower().startswith(lead):
        why = why[len(lead) :].lstrip(" :")
    return f"{lead}: {why}" if why else lead


def failure_text(error: Any, attempts: int, why: str = "") -> str:
    """``model call failed[ after N attempts]: ERROR[ (why)]``."""
    tried = f" after {attempts} attempts" if attempts > 1 else ""
    return f"model call failed{tried}: {error}{f' ({why})' if why else ''}"


__all__ = [
    "RunFeedback",
    "compaction_outcome",
    "cost_text",
    "failure_text",
    "nothing_compacted",
    "pruned_line",
]
