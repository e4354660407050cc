"""What a compaction summary must carry: :func:`required_items`, the one list the gate checks.

Each collector in :data:`COLLECTORS` adds items of one rule: the checkpoint sections; the goal;
the fact ledger's live facts (constraints, decisions, the next step in force, open
errors, identifiers — never a retired value); the modified files. (Another source — e.g.
pinned texts — is one more collector.) The ledger is the summarizers' too: there is no second
classifier. It is remembered from one compaction to the next in ``details.gate.ledger``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tether.builtin_plugins.memory.fact_ledger import Fact, Ledger, build_ledger
from tether.builtin_plugins.memory.fact_ledger.cues import cues_for
from tether.builtin_plugins.memory.fact_ledger.goal import goal_shown, in_goal
from tether.builtin_plugins.memory.fact_ledger.notes import fact_note, revision_note
from tether.builtin_plugins.memory.fact_ledger.recall import kept_identifiers, kept_requests
from tether.builtin_plugins.memory.offline_summarizer.facts import MAX_ERRORS, MAX_GOAL, quote
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
    "request": "Done",
    "error": "Blocked",
    "fixed": "Done",
    "identifier": "Critical Context",
    "file": "Modified Files",
}


@dataclass(frozen=True)
class RequiredItem:
    """One thing the summary must contain: ``rule`` (section, goal, constraint, decision,
    next_step, error, fixed, file), the verbatim ``text`` and where it came from
    (``origin``)."""

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
    """What the collectors read: the check and the fact ledger after its messages."""

    check: SummaryCheck
    ledger: Ledger


def sections(ctx: Context) -> list[RequiredItem]:
    """The checkpoint sections, when the summarizer wrote a history summary."""
    prep = ctx.check.preparation
    if prep.is_split_turn and not prep.messages_to_summarize:
        return []  # the history is the previous summary, kept as it was
    return [RequiredItem("section", name, "checkpoint format") for name in SECTIONS]


def _shown(fact: Fact, text: str | None = None) -> str:
    """The words a summary must hold: a summary's item without its quotes, else verbatim
    (``text``: what is shown of the fact, when not all of it)."""
    text = fact.text if text is None else text
    if fact.source != "previous summary":
        return quote(text, MAX_GOAL)
    text = text.strip()
    return text[1:-1] if len(text) > 1 and text[0] == text[-1] == '"' else text


def goal(ctx: Context) -> list[RequiredItem]:
    """The defining request, as the ledger keeps it (with what changed since, if any)."""
    fact = ctx.ledger.goal()
    if fact is None:
        return []
    note = ctx.ledger.goal_note()
    return [RequiredItem("goal", _shown(fact, goal_shown(ctx.ledger)) + note, fact.id)]


def live_facts(ctx: Context) -> list[RequiredItem]:
    """Every live constraint, decision and the next step in force — never a retired
    one (a changed value is only required in its latest form)."""
    out = []
    for fact in ctx.ledger.live():
        if fact.kind in ("constraint", "decision", "next_step") and not in_goal(ctx.ledger, fact):
            revised = fact_note(ctx.ledger, fact)
            shown = _shown(fact) + (f" ({revised})" if revised else "")
            out.append(RequiredItem(fact.kind, shown, fact.id))
    return out


def noted_requests(ctx: Context) -> list[RequiredItem]:
    """Requests that state a fact though no cue classifies them ("Retries happen 3 times
    with jitter.", "show them in utc with a Z"): the newest within a budget
    (:func:`.recall.kept_requests`), kept under Done (history, never current)."""
    said = kept_requests(ctx.ledger, cues_for(ctx.check.fact_cues))
    return [RequiredItem("request", _shown(f), f.id) for f in said]


def open_errors(ctx: Context) -> list[RequiredItem]:
    """The newest errors still unresolved (a later success of the same call resolves one),
    each with a note for a value it quotes that was changed or taken back since."""
    out = []
    for fact in ctx.ledger.live("error")[-MAX_ERRORS:]:
        revised = revision_note(ctx.ledger, f"{fact.note} {fact.text}")
        out.append(RequiredItem("error", fact.text + (f" ({revised})" if revised else ""), fact.id))
    return out


MAX_FIXED = 6  # errors since fixed that the summary still names


def fixed_errors(ctx: Context) -> list[RequiredItem]:
    """The lines of the newest errors fixed since (a later success of the same call): what
    went wrong stays known ("aarch64-linux-musl-gcc: not found"), under Done — history."""
    fixed = [f for f in ctx.ledger.facts if f.kind == "error" and f.status == "resolved"]
    return [RequiredItem("fixed", f.text, f.id) for f in fixed[-MAX_FIXED:]]


def identifiers(ctx: Context) -> list[RequiredItem]:
    """Live identifiers (ticket ids, version pins, paths, variables, flags) no kept rule
    already quotes: the ones the offline summary lists (:func:`.recall.kept_identifiers`)."""
    return [RequiredItem("identifier", f.text, f.id) for f in kept_identifiers(ctx.ledger)]


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
    live_facts,
    noted_requests,
    open_errors,
    fixed_errors,
    identifiers,
    modified_files,
]


def check_ledger(check: SummaryCheck) -> Ledger:
    """The fact ledger after ``check``'s messages (continued from the previous compaction's)."""
    prep = check.preparation
    return build_ledger(
        check.messages,
        [*prep.summarized_entry_ids, *prep.turn_prefix_entry_ids],
        previous_details=check.previous_details if prep.previous_summary else None,
        previous_summary=prep.previous_summary,
        cue_tables=check.fact_cues,
    )


def required_items(check: SummaryCheck) -> tuple[list[RequiredItem], dict[str, Any]]:
    """Everything ``check``'s summary must contain (deduplicated), and the record to keep in
    ``details.gate`` for the next compaction (``ledger``: the fact ledger as JSON)."""
    ctx = Context(check, check_ledger(check))
    items: dict[tuple[str, str], RequiredItem] = {}
    for collect in COLLECTORS:
        for item in collect(ctx):
            if item.text.strip():
                items.setdefault((item.rule, " ".join(item.text.split()).casefold()), item)
    return list(items.values()), {"ledger": ctx.ledger.to_json()}


__all__ = ["COLLECTORS", "RULE_SECTIONS", "SECTIONS", "RequiredItem", "required_items"]
