"""The offline checkpoint: the ledger's live facts in their sections, then the progress.

Goal, constraints, decisions, next steps and open errors come from the fact ledger only (a
retired fact is never shown; a fact that replaced one says so and names the ``recall`` query
that finds the old value). Progress — actions done, paths, names, errors seen — comes from the
messages and, in update mode, from the previous summary's progress sections (bounded: the
newest :data:`MAX_DONE` actions, one merged ``Paths:`` line), so once the facts stop changing
the summary stops growing.
"""

from __future__ import annotations

import re

from tether.builtin_plugins.memory.fact_ledger import (
    Fact,
    Ledger,
    default_cues,
    normal,
    words_of,
)
from tether.builtin_plugins.memory.fact_ledger.goal import goal_shown, in_goal
from tether.builtin_plugins.memory.fact_ledger.moot import MOOT
from tether.builtin_plugins.memory.fact_ledger.notes import fact_note, revision_note
from tether.builtin_plugins.memory.fact_ledger.recall import kept_identifiers, requests_done
from tether.builtin_plugins.memory.offline_summarizer.facts import (
    MAX_ERRORS,
    MAX_FUNCTIONS,
    MAX_GOAL,
    MAX_PATHS,
    Facts,
    quote,
)
from tether.builtin_plugins.memory.offline_summarizer.sections import (
    Checkpoint,
    add_unique,
    merge,
)

#: Critical Context lines the ledger writes: never carried over from a previous summary.
LEDGER_PREFIXES = ("Identifiers: ", "Changed values: ", "Requested focus: ")
_RECALL_WORDS = 4
MAX_ACTIONS = 10  # progress is compacted first: the newest actions only, so the size settles


def _cap(items: list[str], limit: int, label: str) -> list[str]:
    if len(items) <= limit:
        return items
    return [f"(+{len(items) - limit + 1} earlier {label})", *items[-(limit - 1) :]]


def recall_query(ledger: Ledger, fact: Fact) -> str:
    """Words the old and the new value share: what ``tether recall`` finds the old one by
    ("" when they share none but numbers: a bare "10" finds every entry with a 10 in it)."""
    old = ledger.replaced(fact)
    if not old:
        return ""
    shared = words_of(fact.text) & words_of(old[0].text)
    ordered = [w for w in normal(old[0].text).split() if w in shared and not w.isdigit()]
    words = list(dict.fromkeys(ordered))[:_RECALL_WORDS]
    return " ".join(words)


def shown(ledger: Ledger, fact: Fact) -> str:
    """A fact as a summary item: verbatim, quoted, with its note and what it replaced."""
    text = fact.text if fact.source == "previous summary" else f'"{quote(fact.text, 2000)}"'
    if fact.note and fact.kind != "error":
        text += f" ({fact.note})"
    revised = fact_note(ledger, fact) if fact.kind != "error" else ""
    if revised:  # right after the words: the gate looks for both together
        text += f" ({revised})"
    if fact.kind in ("constraint", "decision") and ledger.replaced(fact):
        query = recall_query(ledger, fact)
        found = f'; `recall "{query}"` finds the old value' if query else ""
        text += f" (changed earlier{found})"
    return text


def _blocked(ledger: Ledger, error: Fact) -> str:
    """An open error as a Blocked item: the failed call, its error line, and a note for an
    identifier of the call revoked or replaced since ("--offline revoked, no longer in use")."""
    text = f'{error.note} failed: "{error.text}"' if error.note else f'"{error.text}"'
    revised = revision_note(ledger, f"{error.note} {error.text}")
    return f"{text} ({revised})" if revised else text


def _identifiers(ledger: Ledger) -> list[str]:
    """Live identifiers that no shown rule already quotes, within the budget the gate checks
    (:func:`~tether.builtin_plugins.memory.fact_ledger.recall.kept_identifiers`)."""
    return [f.text for f in kept_identifiers(ledger)]


def _progress(previous: Checkpoint | None) -> Checkpoint:
    """The previous summary's progress only: facts come from the ledger, not from its text."""
    carried = Checkpoint()
    if previous is None:
        return carried
    add_unique(carried.done, [d for d in previous.done if not d.startswith('Request: "')])
    add_unique(
        carried.critical, [c for c in previous.critical if not c.startswith(LEDGER_PREFIXES)]
    )
    return carried


def build_checkpoint(
    facts: Facts, ledger: Ledger, focus: str | None = None, previous: Checkpoint | None = None
) -> Checkpoint:
    """Sections from the ledger's live facts and the progress of ``facts`` (and ``previous``)."""
    cp = _progress(previous)
    goal = ledger.goal()
    if goal is not None:
        shown_goal = goal_shown(ledger)
        text = shown_goal if goal.source == "previous summary" else quote(shown_goal, MAX_GOAL)
        cp.goal = [text + ledger.goal_note()]
    rules = [f for f in ledger.live("constraint") if not in_goal(ledger, f)]
    add_unique(cp.constraints, [shown(ledger, f) for f in rules])
    add_unique(cp.decisions, [shown(ledger, f) for f in ledger.live("decision")])
    pending = facts.requests[-1] if facts.requests and not facts.answered else ""
    pending_key = normal(pending)
    requests = [
        f'Request: "{quote(f.text, 2000)}"'
        for f in requests_done(ledger)
        if not (pending_key and normal(f.text) in pending_key)
    ]
    actions = [a + (f" ({n}×)" if n > 1 else "") for a, n in facts.done.items()]
    add_unique(cp.done, actions)
    cp.done = requests + _cap(cp.done, MAX_ACTIONS, "actions")
    errors = ledger.live("error")[-MAX_ERRORS:]
    cp.blocked = [_blocked(ledger, e) for e in errors]
    if pending:
        progress = f'"{quote(pending, MAX_GOAL)}"'
        if facts.last_action:
            progress += f" (last completed action: {facts.last_action})"
        cp.in_progress = [progress]
        cp.next_steps.append(f'Continue the unanswered request: "{quote(pending, MAX_GOAL)}"')
    for step in ledger.live("next_step"):
        if pending and step.source == "previous summary":
            continue  # a summary's own next steps give way to the newer request
        if not (pending_key and normal(step.text) in pending_key):
            cp.next_steps.append(shown(ledger, step))
    if focus:
        cp.critical.append(f"Requested focus: {quote(focus)}")
    _critical(cp, facts, ledger)
    for embedded in facts.embedded:
        cp = merge(embedded, cp)
    return cp


_STATED = frozenset({"constraint", "decision", "request", "next_step"})


def _replaced_path(ledger: Ledger, path: str) -> bool:
    """A path the user replaced: one the goal names that a later fact changed, or one said in
    a retired fact or named by a live one only as the old value ("… instead of /data/exports",
    "stop writing to /var/log/relay.log")."""
    if path in ledger.goal_changes():
        return True
    replaced = (f for f in ledger.facts if f.status == "retired" and f.kind in _STATED)
    old = any(path in f.text for f in replaced)
    cues = default_cues()
    for fact in ledger.live():
        at = fact.text.find(path)
        if at < 0 or fact.kind == "identifier":
            continue
        span = cues.find("replaces", fact.text)
        if span is None or not 0 <= at - span[1] <= 5:
            return False  # still said as a current value
        old = True
    return old


_PATH_ITEM = re.compile(r"`([^`]+)`|\(\+[^)]*\)")


def _current_paths(line: str, ledger: Ledger) -> str:
    """A ``Paths:`` line (carried from an earlier summary too) without the replaced paths."""
    kept = [
        m.group(0)
        for m in _PATH_ITEM.finditer(line[len("Paths: ") :])
        if m.group(1) is None or not _replaced_path(ledger, m.group(1))
    ]
    return "Paths: " + ", ".join(kept) if kept else ""


def _critical(cp: Checkpoint, facts: Facts, ledger: Ledger) -> None:
    items: list[str] = []
    kept_paths = [p for p in facts.paths if not _replaced_path(ledger, p)]
    if kept_paths:
        paths = _cap(kept_paths, MAX_PATHS, "paths")
        items.append("Paths: " + ", ".join(p if p.startswith("(+") else f"`{p}`" for p in paths))
    if facts.functions:
        names = _cap(list(facts.functions), MAX_FUNCTIONS, "names")
        items.append(
            "Functions and symbols: "
            + ", ".join(f if f.startswith("(+") else f"`{f}()`" for f in names)
        )
    items += [f'Error seen: "{line}"' for line in facts.error_lines[-MAX_ERRORS:]]
    identifiers = _identifiers(ledger)
    if identifiers:
        items.append("Identifiers: " + ", ".join(f"`{i}`" for i in identifiers))
    merged = merge(Checkpoint(critical=cp.critical), Checkpoint(critical=items)).critical
    merged = [_current_paths(c, ledger) if c.startswith("Paths: ") else c for c in merged]
    moot = {f'Error seen: "{f.text}"' for f in ledger.facts if f.status == MOOT}
    errors = [_NOTE.sub("", c) for c in merged if c.startswith("Error seen: ")]
    errors = list(dict.fromkeys(c for c in errors if c not in moot))
    kept = [c for c in merged if c and not c.startswith("Error seen: ")]
    cp.critical = kept + [_with_note(ledger, c) for c in errors[-MAX_ERRORS:]]


#: The change note an error line was shown with (said again from the ledger, never carried).
_NOTE = re.compile(r" \((?:[^()]*(?:changed to|revoked, no longer in use)[^()]*)\)$")


def _with_note(ledger: Ledger, line: str) -> str:
    """An error seen, with a note for a value it quotes that was changed or taken back since
    (the old output path of an "No space left on device" error)."""
    revised = revision_note(ledger, line)
    return f"{line} ({revised})" if revised else line


__all__ = ["LEDGER_PREFIXES", "build_checkpoint", "recall_query", "shown"]
