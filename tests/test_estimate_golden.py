"""Token estimates of every corpus file equal pi's (the oracle's ``estimate`` goldens).

Per-entry estimates, the context's per-message estimates, the usage-anchored context size,
the last assistant usage, the footer figure and the threshold test; parameters (window,
reserve, keep) come from ``golden/requests.json``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.context_loader import (
    GEN,
    fixture_names,
    golden,
    golden_request,
    load_entries,
)
from tether.builtin_plugins.commands.context.estimate import estimate_report
from tether.core.context.build import path_to_root
from tether.core.host.manager import create_plugin_manager

NAMES = fixture_names()
V3_NAMES = [n for n in NAMES if golden(n, "context")["headerVersionOnDisk"] == 3]
CLI_NAMES = ["g07-images", "g14-usage-variants", "g21-compaction-multi", "g24-compaction-at-leaf"]
COMPARED = ("leafId", "window", "settings", "entries", "totalEntryTokens", "context")
COMPARED += ("lastAssistantUsage", "lastAssistantContextTokens", "contextUsage", "checkCompaction")


@pytest.fixture(scope="module")
def pm() -> Any:
    return create_plugin_manager(environ=BUILTINS_ONLY)


# pi parity is about the built-ins: installed third-party plugins (e.g. a context hook) stay off
BUILTINS_ONLY = {**os.environ, "TETHER_LOAD_PLUGINS": ""}


def settings_of(request: dict[str, Any]) -> dict[str, Any]:
    return {
        "enabled": True,
        "reserveTokens": request["reserve"],
        "keepRecentTokens": request["keep"],
    }


def assert_same_estimate(ours: dict[str, Any], pi: dict[str, Any], *, ids: bool = True) -> None:
    if not ids:  # migrated files get fresh ids; pi's oracle numbers them
        strip = ("id",)
        ours = {
            **ours,
            "entries": [{k: v for k, v in e.items() if k not in strip} for e in ours["entries"]],
        }
        pi = {
            **pi,
            "entries": [{k: v for k, v in e.items() if k not in strip} for e in pi["entries"]],
        }
        ours.pop("leafId")
        pi = {k: v for k, v in pi.items() if k != "leafId"}
    for key in COMPARED:
        if key in pi:
            assert ours[key] == pi[key], key
    assert ours["contextTokens"] == pi["context"]["estimateContextTokens"]["tokens"]


@pytest.mark.parametrize("name", V3_NAMES)
def test_estimate_api_matches_pi(name: str, pm: Any) -> None:
    request = golden_request(name, "estimate")
    _, entries = load_entries(GEN / f"{name}.jsonl")
    by_id = {e["id"]: e for e in entries}
    branch = path_to_root(entries[-1], by_id.get) if entries else []
    report = estimate_report(
        pm,
        entries=entries,
        branch=branch,
        leaf_id=entries[-1]["id"] if entries else None,
        window=request["window"],
        settings=settings_of(request),
    )
    assert_same_estimate(report, golden(name, "estimate"))


def run_estimate(path: Path, request: dict[str, Any]) -> dict[str, Any]:
    args = ["--window", str(request["window"]), "--reserve", str(request["reserve"])]
    args += ["--keep", str(request["keep"]), "--json"]
    done = subprocess.run(
        [sys.executable, "-m", "tether", "session", "estimate", str(path), *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        env=BUILTINS_ONLY,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("name", CLI_NAMES)
def test_estimate_cli_matches_pi(name: str) -> None:
    report = run_estimate(GEN / f"{name}.jsonl", golden_request(name, "estimate"))
    assert_same_estimate(report, golden(name, "estimate"))


@pytest.mark.parametrize("name", ["e35-legacy-v1", "e36-legacy-v2-hookmessage"])
def test_legacy_estimate_cli_matches_pi(name: str, tmp_path: Path) -> None:
    copy = tmp_path / f"{name}.jsonl"
    shutil.copyfile(GEN / f"{name}.jsonl", copy)
    report = run_estimate(copy, golden_request(name, "estimate"))
    assert_same_estimate(report, golden(name, "estimate"), ids=False)
