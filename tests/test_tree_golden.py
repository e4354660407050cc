"""``getTree``/labels/name/branch of every corpus file equal pi's goldens (oracle ``tree``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.store_helpers import CORPUS, copy_fixture, counter_ids, golden, run_tether
from tether.builtin_plugins.commands.session.tree_json import tree_json
from tether.builtin_plugins.storage.jsonl.store import JsonlStore
from tether.core.session.session import Session

FIELDS = (
    "roots",
    "children",
    "labels",
    "labelTimestamps",
    "sessionName",
    "branch",
    "preorder",
    "treeLeaves",
    "leafId",
    "entries",
    "entryCount",
)


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_tree_equals_pi_golden(path: Path, tmp_path: Path) -> None:
    expected = golden(path.stem, "tree")
    copy = copy_fixture(path.name, tmp_path)
    # the oracle numbers ids it generates during v1 migration 00000001, 00000002, …
    session = Session.open(copy, store=JsonlStore(copy, id_factory=counter_ids()))
    tree = tree_json(session)
    for field in FIELDS:
        assert tree[field] == expected[field], field
    assert tree["header"] == expected["header"]
    assert session.migrated == expected["migrated"]


def test_tree_json_of_the_cli_matches_the_golden() -> None:
    path = next(p for p in CORPUS if p.stem == "g18-branched-summaries")
    result = run_tether("session", "tree", str(path), "--json")
    assert result.returncode == 0, result.stderr
    tree = json.loads(result.stdout)
    expected = golden(path.stem, "tree")
    for field in FIELDS:
        assert tree[field] == expected[field], field


def test_tree_text_marks_the_leaf_and_labels() -> None:
    path = next(p for p in CORPUS if p.stem == "g12-labels")
    result = run_tether("session", "tree", "--full", str(path))
    assert result.returncode == 0, result.stderr
    expected = golden(path.stem, "tree")
    lines = result.stdout.splitlines()
    assert len(lines) == expected["entryCount"]
    leaf_line = next(line for line in lines if line.startswith("*"))
    assert expected["leafId"] in leaf_line
    for target, label in expected["labels"].items():
        assert any(target in line and f"[{label}]" in line for line in lines)
