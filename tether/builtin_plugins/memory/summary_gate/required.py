"""What a compaction summary must carry: :func:`required_items`, the one list the gate checks.

Each collector in :data:`COLLECTORS` adds items of one rule: the checkpoint sections; the goal;
every constraint and decision of the previous summary and those the user stated in the
summarized messages (the offline summarizer's recognizers); the user's latest stated next step;
the last unresolved error; the modified files. (Another source — e.g. pinned texts — is one
more collector.) Goal, next step and error are remembered from one compaction to the next in
``details.gate.carry``, since a summary's wording cannot always tell them apart.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tether.builtin_plugins.memory.offline_summarizer.facts import (
    MAX_GOAL,
    Facts,
    quote,
    read_facts,
)
from tether.builtin_plugins.memory.offline_summarizer.sections import Checkpoint, parse_summary
from tether.hookspecs.gate import SummaryCheck

#: The checkpoint sections a compaction summary must have (pi's, any heading level).
SECTIONS = (
    "Goal",
    "Constraints & Preferences",
    "Progress",
    "Key Decisions",
    "Next Steps",
    "Critical Context",
)
#: Where each rule's items go in the carried-forward block.
RULE_SECTIONS = {
    "goal": "Goal",
    "constraint": "Constraints & Preferences",
    "decision": "Key Decisions",
    "next_step": "Next Steps",
    "error": "Blocked",
    "file": "Modified Files",
}
_ACCEPTED = re.compile(r'^"(.*)"(?: \(proposed by the assistant, accepted\))?$', re.DOTALL)


@dataclass(frozen=True)
class RequiredItem:
    """One thing the summary must contain: ``rule`` (section, goal, constraint, decision,
    next_step, error, file), the verbatim ``text`` and where it came from (``origin``)."""

    rule: str
    text: str
    origin: str

    @property
    def section(self) -> str:
        return self.text if self.rule == "section" else RULE_SECTIONS[self.rule]

    def label(self) -> str:
        return f'{self.rule.replace("_", " ")} "{self.text}"'


@dataclass
class Context:
    """What the collectors read: the check, the previous summary's sections, the facts of the
    summarized messages, the gate's record from the previous compaction."""

    check: SummaryCheck
    previous: Checkpoint
    facts: Facts
    carry: dict[str, Any]
    record: dict[str, Any] = field(default_factory=dict)  # becomes details.gate.carry


def _unquoted(item: str) -> str:
    match = _ACCEPTED.match(item.strip())
    return match.group(1) if match else item.strip()


def sections(ctx: Context) -> list[RequiredItem]:
    """The checkpoint sections, when the summarizer wrote a history summary."""
    prep = ctx.check.preparation
    if prep.is_split_turn and not prep.messages_to_summarize:
        return []  # the history is the previous summary, kept as it was
    return [RequiredItem("section", name, "checkpoint format") for name in SECTIONS]


def goal(ctx: Context) -> list[RequiredItem]:
    """The defining request: remembered, else the first substantive request summarized now."""
    text = ctx.carry.get("goal")
    origin = "previous compaction"
    if not isinstance(text, str) or not text:
        text, origin = "", "summarized messages"
        if not ctx.check.preparation.previous_summary and ctx.facts.requests:
            text = quote(ctx.facts.requests[0], MAX_GOAL)
    if not text:
        return []
    ctx.record["goal"] = text
    return [RequiredItem("goal", text, origin)]


def constraints(ctx: Context) -> list[RequiredItem]:
    """Every constraint of the previous summary and every one the user stated now."""
    old = [
        RequiredItem("constraint", _unquoted(c), "previous summary")
        for c in ctx.previous.constraints
    ]
    new = [
        RequiredItem("constraint", quote(c), "summarized messages") for c in ctx.facts.constraints
    ]
    return old + new


def decisions(ctx: Context) -> list[RequiredItem]:
    """Every decision of the previous summary and every one the user stated (or accepted) now."""
    old = [
        RequiredItem("decision", _unquoted(d), "previous summary") for d in ctx.previous.decisions
    ]
    new = [
        RequiredItem("decision", _unquoted(d), "summarized messages") for d in ctx.facts.decisions
    ]
    return old + new


def next_step(ctx: Context) -> list[RequiredItem]:
    """The user's latest stated next step ("Next, …"), now or remembered."""
    text, origin = ctx.facts.next_step, "summarized messages"
    if not text:
        text, origin = str(ctx.carry.get("nextStep") or ""), "previous compaction"
    if not text:
        return []
    ctx.record["nextStep"] = text
    return [RequiredItem("next_step", quote(text, MAX_GOAL), origin)]


def last_error(ctx: Context) -> list[RequiredItem]:
    """The last error that is still unresolved (a later success of the same call resolves it)."""
    if not ctx.facts.errors:
        return []
    (tool, target), line = list(ctx.facts.errors.items())[-1]
    ctx.record["error"] = {"tool": tool, "target": target, "line": line}
    return [RequiredItem("error", line, "summarized messages")]


def modified_files(ctx: Context) -> list[RequiredItem]:
    """Files written or edited: the file lists, and write/edit calls in the messages."""
    paths = dict.fromkeys(ctx.check.modified_files)
    for message in ctx.check.messages:
        if message.get("role") != "assistant":
            continue
        for block in message.get("content") or []:
            if not isinstance(block, dict) or block.get("type") != "toolCall":
                continue
            args = block.get("arguments")
            if block.get("name") in ("write", "edit") and isinstance(args, dict):
                if isinstance(args.get("path"), str) and args["path"]:
                    paths[args["path"]] = None
    return [RequiredItem("file", path, "modified files") for path in paths]


Collector = Callable[[Context], list[RequiredItem]]
#: The collectors of :func:`required_items`, in the order the block lists them.
COLLECTORS: list[Collector] = [
    sections,
    goal,
    constraints,
    decisions,
    next_step,
    last_error,
    modified_files,
]


def _facts(check: SummaryCheck, carry: dict[str, Any]) -> Facts:
    seeded = Facts()
    error = carry.get("error")
    if isinstance(error, dict) and isinstance(error.get("line"), str):
        seeded.errors[(str(error.get("tool", "")), str(error.get("target", "")))] = error["line"]
    return read_facts(check.messages, seeded)


def required_items(check: SummaryCheck) -> tuple[list[RequiredItem], dict[str, Any]]:
    """Everything ``check``'s summary must contain (deduplicated), and the record to keep in
    ``details.gate.carry`` for the next compaction."""
    gate = (check.previous_details or {}).get("gate")
    carry = gate.get("carry") if isinstance(gate, dict) else None
    carry = carry if isinstance(carry, dict) else {}
    previous = check.preparation.previous_summary
    ctx = Context(
        check, parse_summary(previous) if previous else Checkpoint(), _facts(check, carry), carry
    )
    items: dict[tuple[str, str], RequiredItem] = {}
    for collect in COLLECTORS:
        for item in collect(ctx):
            if item.text.strip():
                items.setdefault((item.rule, " ".join(item.text.split()).casefold()), item)
    return list(items.values()), ctx.record


__all__ = ["COLLECTORS", "RULE_SECTIONS", "SECTIONS", "RequiredItem", "required_items"]
