"""Branch-summary input (pi's collectEntriesForBranchSummary + prepareBranchEntries).

Checked against pi's ``branch`` goldens (every corpus file) and, because no golden hits the
token budget, against pi's answers for small budgets recorded in
``fixtures/compaction/branch-budget.pi.json.gz`` (``build.py --record``).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from tests.context_loader import GEN, GOLDEN, golden, golden_request, load_entries
from tether.builtin_plugins.memory.pi_strategy.branch_input import (
    branch_token_budget,
    prepare_branch_entries,
)
from tether.builtin_plugins.memory.serialize import serialize_messages
from tether.builtin_plugins.memory.token_estimate import estimate_tokens
from tether.core.context.file_tracking import file_lists, format_file_lists
from tether.core.memory.branching import collect_abandoned_entries

FIXTURES = Path(__file__).parent / "fixtures"
BRANCH_NAMES = sorted(p.name.split(".")[0] for p in GOLDEN.glob("*.branch.json.gz"))


def count(messages: list[dict[str, Any]]) -> list[int]:
    return [estimate_tokens(m) for m in messages]


def entries_of(path: Path) -> list[dict[str, Any]]:
    """Every entry of a session file (v1/v2 files are migrated by ``Session``)."""
    header, entries = load_entries(path)
    if header is not None and header.get("version") == 3:
        return entries
    from tether.core.session.session import Session

    return Session.open(path, readonly=True).entries()  # never rewrite a fixture


def lookup(entries: list[dict[str, Any]]):
    return {e.get("id"): e for e in entries}.get


@pytest.mark.parametrize("name", BRANCH_NAMES)
def test_branch_preparation_equals_pi(name: str) -> None:
    expected = golden(name, "branch")
    request = golden_request(name, "branch")
    entries = entries_of(GEN / f"{name}.jsonl")
    old_leaf = request.get("from", entries[-1]["id"] if entries else None)
    collected, ancestor = collect_abandoned_entries(lookup(entries), old_leaf, request["to"])
    assert ancestor == expected["commonAncestorId"]
    assert [e["id"] for e in collected] == expected["entryIds"]
    budget = branch_token_budget(request.get("window"), request.get("reserve", 16384))
    assert budget == expected["tokenBudget"]
    prepared = prepare_branch_entries(collected, budget, count)
    want = expected["prepared"]
    assert prepared.messages == want["messages"]
    assert prepared.total_tokens == want["totalTokens"]
    assert prepared.file_ops.to_json() == want["fileOps"]
    read, modified = file_lists(prepared.file_ops)
    assert [read, modified] == [want["fileLists"]["readFiles"], want["fileLists"]["modifiedFiles"]]
    assert format_file_lists(read, modified) == want["fileOpsText"]
    # branch input has no tool results, so tether's text (§8.12) equals pi's here
    assert serialize_messages(prepared.messages) == want["serialized"]
    unlimited = prepare_branch_entries(collected, 0, count)
    assert unlimited.total_tokens == expected["preparedUnlimited"]["totalTokens"]
    assert unlimited.file_ops.to_json() == expected["preparedUnlimited"]["fileOps"]


BUDGET_CASES = json.loads(
    gzip.decompress((FIXTURES / "compaction" / "branch-budget.pi.json.gz").read_bytes())
)


@pytest.mark.parametrize(
    "case",
    BUDGET_CASES,
    ids=[f"{Path(c['request']['file']).stem}-{c['request']['budget']}" for c in BUDGET_CASES],
)
def test_budgeted_branch_preparation_equals_pi(case: dict[str, Any]) -> None:
    request = case["request"]
    entries = entries_of(FIXTURES / request["file"])
    collected, ancestor = collect_abandoned_entries(lookup(entries), request["from"], request["to"])
    assert ancestor == case["commonAncestorId"]
    assert [e["id"] for e in collected] == case["entryIds"]
    prepared = prepare_branch_entries(collected, request["budget"], count)
    want = case["prepared"]
    assert len(prepared.messages) == want["messageCount"]
    assert [m.get("role") for m in prepared.messages] == case["messageRoles"]
    assert [m.get("timestamp") for m in prepared.messages] == case["messageTimestamps"]
    assert prepared.total_tokens == want["totalTokens"]
    assert prepared.file_ops.to_json() == want["fileOps"]
    assert serialize_messages(prepared.messages) == want["serialized"]


def test_budget_cases_cover_the_summary_exception() -> None:
    """A summary entry that does not fit is still taken below 90% of the budget (pi)."""
    by_budget = {
        c["request"]["budget"]: c
        for c in BUDGET_CASES
        if c["request"]["file"].endswith("branch-budget.jsonl")
    }
    assert by_budget[800]["messageRoles"][0] == "branchSummary"
    assert by_budget[800]["prepared"]["totalTokens"] > 800
    assert "branchSummary" not in by_budget[700]["messageRoles"]


def test_collect_without_old_leaf_or_across_roots() -> None:
    entries = [
        {"type": "message", "id": "a", "parentId": None, "message": {"role": "user"}},
        {"type": "message", "id": "b", "parentId": "a", "message": {"role": "assistant"}},
        {"type": "message", "id": "c", "parentId": None, "message": {"role": "user"}},
    ]
    assert collect_abandoned_entries(lookup(entries), None, "a") == ([], None)
    collected, ancestor = collect_abandoned_entries(lookup(entries), "b", "c")
    assert ancestor is None and [e["id"] for e in collected] == ["a", "b"]
    collected, ancestor = collect_abandoned_entries(lookup(entries), "a", "b")
    assert ancestor == "a" and collected == []
