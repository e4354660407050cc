"""Which rows of a path make its context: the column-wise plan (searches from the end, C-level
passes over the path's types) equals the plain one-row-at-a-time rule on every fixture, for
leaves all over each tree."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tether.core.base.errors import SessionFileError
from tether.core.session.context_rows import CONTEXT_TYPES, context_plan
from tether.core.session.session import Session

FIXTURES = Path(__file__).resolve().parent / "fixtures"
FILES = sorted(p for p in FIXTURES.rglob("*.jsonl") if p.stat().st_size > 0)


def plain_plan(table: Any, path: list[int]) -> tuple[list[int], int]:
    """The rule as stated: the last compaction, thinking-level and model entries, and every
    entry that can hold a message from the compaction's first kept entry on."""
    types = table.types
    compaction = thinking = model = -1
    for i, row in enumerate(path):
        if types[row] == "compaction":
            compaction = i
        elif types[row] == "thinking_level_change":
            thinking = i
    for i in range(len(path) - 1, -1, -1):
        kind = types[path[i]]
        if kind == "model_change" or (kind == "message" and table.role(path[i]) == "assistant"):
            model = i
            break
    start = 0
    keep = {thinking, model, compaction} - {-1}
    if compaction >= 0:
        first_kept = table.entry(path[compaction]).get("firstKeptEntryId")
        found = [i for i in range(compaction) if table.ids[path[i]] == first_kept]
        start = found[0] if found else compaction + 1
    keep.update(i for i in range(start, len(path)) if types[path[i]] in CONTEXT_TYPES)
    positions = sorted(keep)
    return [path[i] for i in positions], sum(1 for i in positions if i < start)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_the_plan_is_the_plain_rule_for_every_leaf(path: Path) -> None:
    try:
        session = Session.open(path, readonly=True)
    except SessionFileError:
        return
    table = session.table
    for leaf in range(len(table)):
        rows = session._path_rows(leaf)
        assert context_plan(table, rows) == plain_plan(table, rows), leaf
