"""The structured checkpoint as data: pi's sections, parsed from text, merged and rendered.

A :class:`Checkpoint` holds the items of each section. :func:`parse_summary` reads a summary
written by anyone (pi, an LLM, the offline summarizer) back into items, so update mode can
keep every previous item; :func:`render` writes pi's layout for a summary kind within a
character budget, dropping progress detail first (:data:`DROP_ORDER`, oldest items first, and
saying so) and never the goal, constraints, decisions or next steps.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields

NONE = "(none)"

SECTION_TITLES: dict[str, str] = {
    "goal": "## Goal",
    "constraints": "## Constraints & Preferences",
    "done": "### Done",
    "in_progress": "### In Progress",
    "blocked": "### Blocked",
    "decisions": "## Key Decisions",
    "next_steps": "## Next Steps",
    "critical": "## Critical Context",
}

_HEADING_TO_SECTION: dict[str, str] = {
    "goal": "goal",
    "goals": "goal",
    "original request": "goal",
    "constraints & preferences": "constraints",
    "constraints and preferences": "constraints",
    "constraints": "constraints",
    "preferences": "constraints",
    "done": "done",
    "early progress": "done",
    "in progress": "in_progress",
    "blocked": "blocked",
    "key decisions": "decisions",
    "decisions": "decisions",
    "next steps": "next_steps",
    "critical context": "critical",
    "context for suffix": "critical",
    "carried forward (restored by the summary gate)": "critical",  # its ### subsections count
}

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_MARKER = re.compile(r"^\s*(?:[-*+]\s+(?:\[[ xX]\]\s*)?|\d+[.)]\s+)")
_PLACEHOLDER = re.compile(r"^\(?none\)?\.?$|^\[.*\]$", re.IGNORECASE)
_FILE_BLOCK = re.compile(r"<(read-files|modified-files)>.*?</\1>", re.DOTALL)
_SKIP_LINES = {"---", "**turn context (split turn):**"}
_SPACES = re.compile(r"\s+")
_NORMALIZE_DROP = re.compile(r"[`\"'*]")
_COUNT_SUFFIX = re.compile(r" \(\d+×\)$")
# budget markers and stale offline lines: never carried into the next summary
_NOISE = re.compile(
    r"^(?:… \d+ older items? omitted to fit the budget|\(\+\d+ [\w ]+\)"
    r"|Wait for the next request \(last one answered: .*\))$"
)
_CODE = re.compile(r"`([^`]+)`")
LIST_PREFIXES = {"Paths: ": 60, "Functions and symbols: ": 40}  # one line each, merged
# what the size cap drops, least important first; goal, constraints, decisions and next
# steps are never dropped
DROP_ORDER = ("done", "critical", "in_progress", "blocked")
#: Items the size cap keeps in any section: the exact identifiers the user stated (facts of
#: the fact ledger, dropped only by the ledger itself, with a record).
KEPT = ("Identifiers: ",)


@dataclass
class Checkpoint:
    """Items per section, oldest first; items are text without list markers."""

    goal: list[str] = field(default_factory=list)
    constraints: list[str] = field(default_factory=list)
    done: list[str] = field(default_factory=list)
    in_progress: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    decisions: list[str] = field(default_factory=list)
    next_steps: list[str] = field(default_factory=list)
    critical: list[str] = field(default_factory=list)

    def section(self, name: str) -> list[str]:
        return getattr(self, name)  # type: ignore[no-any-return]


def _key(item: str) -> str:
    flat = _SPACES.sub(" ", _NORMALIZE_DROP.sub("", item)).strip().lower()
    return _COUNT_SUFFIX.sub("", flat)


def add_unique(items: list[str], new: list[str], seen: set[str] | None = None) -> None:
    """Append each of ``new`` not already in ``items`` (compared loosely)."""
    keys = seen if seen is not None else {_key(i) for i in items}
    for item in new:
        key = _key(item)
        if key and key not in keys:
            keys.add(key)
            items.append(item)


def parse_summary(text: str) -> Checkpoint:
    """Read a structured summary back into sections.

    Headings are matched by name (pi's history, turn-prefix and branch layouts); text under
    an unknown heading or before the first heading goes to Critical Context. File-list blocks
    and the ``## Pinned`` section are dropped: the caller re-appends the cumulative lists from
    the entry's details and the pinned texts in force (never carried twice).
    """
    from tether.builtin_plugins.memory.pins.format import strip_pinned

    checkpoint = Checkpoint()
    current = "critical"
    in_fence = False
    for raw in _FILE_BLOCK.sub("", strip_pinned(text)).splitlines():
        line = raw.rstrip()
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            _append_line(checkpoint.section(current), line, continuation=True)
            continue
        if in_fence:
            _append_line(checkpoint.section(current), line, continuation=True)
            continue
        heading = _HEADING.match(line)
        if heading:
            name = heading.group(2).strip().lower()
            if name == "progress":
                continue
            current = _HEADING_TO_SECTION.get(name, "critical")
            if name not in _HEADING_TO_SECTION:
                checkpoint.critical.append(heading.group(2).strip() + ":")
            continue
        stripped = line.strip()
        if not stripped or stripped.lower() in _SKIP_LINES:
            continue
        continuation = not _MARKER.match(line) and raw[:1].isspace()
        item = _MARKER.sub("", line).strip()
        if _PLACEHOLDER.match(item) or _NOISE.match(item):
            continue
        _append_line(checkpoint.section(current), item, continuation=continuation)
    return checkpoint


def _append_line(items: list[str], line: str, *, continuation: bool) -> None:
    if continuation and items:
        items[-1] = items[-1] + "\n" + line
    elif line.strip():
        items.append(line)


def _merge_lists(items: list[str]) -> list[str]:
    """One ``Paths:`` / ``Functions and symbols:`` line each: the union, newest kept."""
    out = list(items)
    for prefix, limit in LIST_PREFIXES.items():
        lines = [i for i in out if i.startswith(prefix)]
        if len(lines) < 2:
            continue
        names = list(dict.fromkeys(n for line in lines for n in _CODE.findall(line)))[-limit:]
        first = out.index(lines[0])
        out = [i for i in out if not i.startswith(prefix)]
        out.insert(first, prefix + ", ".join(f"`{n}`" for n in names))
    return out


def merge(previous: Checkpoint, new: Checkpoint) -> Checkpoint:
    """Every previous item kept; new items added (newest In Progress / Next Steps replace)."""
    merged = Checkpoint()
    for f in fields(Checkpoint):
        name = f.name
        old_items, new_items = previous.section(name), new.section(name)
        target = merged.section(name)
        if name in ("in_progress", "next_steps"):
            add_unique(target, new_items or old_items)
        else:
            add_unique(target, old_items)
            add_unique(target, new_items)
    merged.critical = _merge_lists(merged.critical)
    return merged


_LAYOUTS: dict[str, list[tuple[str, str, str]]] = {
    # (section field, heading, list marker); "" heading = part of the previous heading's block
    "compaction": [
        ("goal", "## Goal", "- "),
        ("constraints", "## Constraints & Preferences", "- "),
        ("done", "## Progress\n### Done", "- [x] "),
        ("in_progress", "### In Progress", "- [ ] "),
        ("blocked", "### Blocked", "- "),
        ("decisions", "## Key Decisions", "- "),
        ("next_steps", "## Next Steps", "#. "),
        ("critical", "## Critical Context", "- "),
    ],
    "turn_prefix": [
        ("goal", "## Original Request", "- "),
        ("done", "## Early Progress", "- "),
        ("critical", "## Context for Suffix", "- "),
    ],
}
_LAYOUTS["branch"] = [row for row in _LAYOUTS["compaction"] if row[0] != "critical"]


def layout_fields(kind: str) -> list[str]:
    """The section fields a summary of ``kind`` shows, in order."""
    return [row[0] for row in _LAYOUTS.get(kind, _LAYOUTS["compaction"])]


def _render_items(items: list[str], marker: str, omitted: int) -> list[str]:
    lines: list[str] = []
    if omitted:
        note = f"… {omitted} older item{'s' if omitted != 1 else ''} omitted to fit the budget"
        lines.append(("1. " if marker == "#. " else "- ") + note)
    if not items and not omitted:
        return ["- " + NONE]
    start = len(lines)
    for number, item in enumerate(items, start=1 + start):
        prefix = f"{number}. " if marker == "#. " else marker
        lines.append(prefix + item)
    return lines


def render(checkpoint: Checkpoint, kind: str = "compaction", max_chars: int | None = None) -> str:
    """pi's layout for ``kind``; within ``max_chars`` by dropping :data:`DROP_ORDER` items."""
    layout = _LAYOUTS.get(kind, _LAYOUTS["compaction"])
    kept = {name: list(checkpoint.section(name)) for name, _, _ in layout}
    omitted = dict.fromkeys(kept, 0)

    def size(name: str) -> int:
        return sum(len(item) + 8 for item in kept[name])

    total = sum(size(name) + len(heading) + 2 for name, heading, _ in layout) + 40
    budget = max_chars if max_chars and max_chars > 0 else None
    for name in (n for n in DROP_ORDER if n in kept):
        while budget is not None and total > budget:
            droppable = [i for i, item in enumerate(kept[name]) if not item.startswith(KEPT)]
            if not droppable:
                break
            at = droppable[-1] if name == "in_progress" else droppable[0]
            dropped = kept[name].pop(at)
            omitted[name] += 1
            total -= len(dropped) + 8
    blocks: list[str] = []
    for name, heading, marker in layout:
        body = _render_items(kept[name], marker, omitted[name])
        blocks.append(heading + "\n" + "\n".join(body))
    return "\n\n".join(blocks)


__all__ = [
    "NONE",
    "SECTION_TITLES",
    "Checkpoint",
    "add_unique",
    "layout_fields",
    "merge",
    "parse_summary",
    "render",
]
