"""The context of every corpus file equals pi's (the oracle's ``context`` goldens).

Most files go through the Python API; a few go through a real ``tether session context``
subprocess. Legacy v1/v2 files need migration, which belongs to ``Session``: they are opened
from a temporary copy (migration rewrites the file).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.context_loader import GEN, fixture_names, golden, load_entries
from tests.harness_helpers import NO_THIRD_PARTY
from tests.store_helpers import run_tether
from tether.core.context.build import build_context_from_path, build_session_context
from tether.core.context.convert import convert_to_llm

NAMES = fixture_names()
V3_NAMES = [n for n in NAMES if golden(n, "context")["headerVersionOnDisk"] == 3]
LEGACY_NAMES = [n for n in NAMES if n not in V3_NAMES]
CLI_NAMES = [
    "g09-bash-exec",
    "g18-branched-summaries",
    "g23-compaction-split-turn",
    "e37-malformed-lines",
]


def test_the_corpus_is_complete() -> None:
    assert len(NAMES) == 40 and LEGACY_NAMES == ["e35-legacy-v1", "e36-legacy-v2-hookmessage"]


def assert_same_context(ours: dict[str, Any], pi: dict[str, Any], *, leaf: bool = True) -> None:
    assert ours["thinkingLevel"] == pi["thinkingLevel"]
    assert ours["model"] == pi["model"]
    assert len(ours["messages"]) == len(pi["messages"])
    for index, (mine, theirs) in enumerate(zip(ours["messages"], pi["messages"], strict=True)):
        assert mine == theirs, f"message {index} differs"
    assert ours["llmMessages"] == pi["llmMessages"]
    if leaf:
        assert ours["leafId"] == pi["leafId"]


@pytest.mark.parametrize("name", V3_NAMES)
def test_context_api_matches_pi(name: str) -> None:
    _, entries = load_entries(GEN / f"{name}.jsonl")
    context = build_session_context(entries)
    ours = {
        "leafId": entries[-1]["id"] if entries else None,
        "thinkingLevel": context.thinking_level,
        "model": context.model,
        "messages": context.messages,
        "llmMessages": convert_to_llm(context.messages),
    }
    assert_same_context(ours, golden(name, "context"))


def open_session(path: Path) -> Any:
    from tether.core.session.session import Session

    return Session.open(path)


@pytest.mark.parametrize("name", LEGACY_NAMES)
def test_legacy_context_through_session_matches_pi(name: str, tmp_path: Path) -> None:
    copy = tmp_path / f"{name}.jsonl"
    shutil.copyfile(GEN / f"{name}.jsonl", copy)
    session = open_session(copy)
    context = build_context_from_path(session.get_branch())
    ours = {
        "thinkingLevel": context.thinking_level,
        "model": context.model,
        "messages": context.messages,
        "llmMessages": convert_to_llm(context.messages),
    }
    # migration gives fresh random ids (pi's oracle numbers them): the leaf id cannot match
    assert_same_context(ours, golden(name, "context"), leaf=False)


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """pi parity is about the built-ins: installed third-party plugins (e.g. a context hook)
    stay off."""
    return run_tether(*args, env=NO_THIRD_PARTY)


@pytest.mark.parametrize("name", CLI_NAMES)
def test_context_cli_matches_pi(name: str) -> None:
    done = run_cli("session", "context", str(GEN / f"{name}.jsonl"), "--json")
    assert done.returncode == 0, done.stderr
    assert_same_context(json.loads(done.stdout), golden(name, "context"))


def test_legacy_context_cli_matches_pi(tmp_path: Path) -> None:
    name = "e35-legacy-v1"
    copy = tmp_path / f"{name}.jsonl"
    shutil.copyfile(GEN / f"{name}.jsonl", copy)
    done = run_cli("session", "context", str(copy), "--json")
    assert done.returncode == 0, done.stderr
    assert_same_context(json.loads(done.stdout), golden(name, "context"), leaf=False)
