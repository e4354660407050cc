"""Pruning seen from the CLI (issue 25 items 1 and 3): ``tether run`` prints one line per prune
step and compaction with its cost, ``--no-prune`` turns pruning off, ``tether session stats``
lists every event and the totals, and compaction runs only when pruning is not enough."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli_in_process import run_in_process
from tests.harness_helpers import run_tether, session_files, write_home
from tests.prune_helpers import WINDOW, harness_on, sent_messages, start_server, write_files

PRUNE = {"keepToolTokens": 3000, "minFreeTokens": 2000}
MODEL = ["--model", "loop/test-model"]


def home_with(tmp_path: Path, server: Any, **compaction: Any) -> Path:
    settings = {"compaction": {"prune": PRUNE, **compaction}}
    return write_home(tmp_path / "home", server, settings=settings, contextWindow=WINDOW)


def test_run_prints_each_step_and_compaction_with_its_cost_and_stats_list_them(
    tmp_path: Path,
) -> None:
    cwd = tmp_path / "work"
    cwd.mkdir()
    prompts = [f"read {name}" for name in write_files(cwd, 3)]
    prompts.append("note this: " + "word " * 6000)  # 7,500 tokens pruning cannot touch
    server = start_server()
    server.start()
    try:
        # a threshold of 32000 - 25000 = 7000 tokens
        home = home_with(tmp_path, server, reserveTokens=25000, keepRecentTokens=2000)
        done = run_tether("run", *MODEL, *prompts, home=home, cwd=cwd)
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    pruned = [line for line in lines if line.startswith("tether: pruned ")]
    compacted = [line for line in lines if line.startswith("tether: compacted: ")]
    assert len(pruned) >= 1 and len(compacted) >= 1, done.stderr
    assert all(line.endswith(" s)") and "summarizer" not in line for line in pruned)
    assert all("summarizer llm (loop/test-model): " in line for line in compacted)
    [file] = session_files(home)
    entries = [json.loads(line) for line in file.read_text().splitlines()[1:]]
    cost = next(e for e in entries if e["type"] == "compaction")["details"]["cost"]
    assert cost["model"] == "loop/test-model" and cost["usage"]["input"] > 0
    assert cost["tokensAfter"] < cost["tokensBefore"] and cost["durationMs"] > 0

    stats = run_in_process("session", "stats", str(file), home=home, cwd=cwd)
    assert stats.returncode == 0, stats.stderr
    text = stats.stdout
    assert f"prune steps: {len(pruned)}" in text and f"compactions: {len(compacted)}" in text
    steps = [e["id"] for e in entries if e.get("customType") == "tether.prune"]
    assert all(f"  {step}  ~" in text for step in steps)
    assert f"economy:    {len(pruned) + len(compacted)} events freed ~" in text
    data = json.loads(
        run_in_process("session", "stats", str(file), "--json", home=home, cwd=cwd).stdout
    )
    assert [p["id"] for p in data["pruneSteps"]] == steps
    assert data["economy"]["usage"]["input"] == cost["usage"]["input"]


def test_no_prune_flag_sends_every_output_whole(tmp_path: Path) -> None:
    cwd = tmp_path / "work"
    cwd.mkdir()
    prompts = [f"read {name}" for name in write_files(cwd, 4)]
    server = start_server()
    server.start()
    try:
        home = home_with(tmp_path, server)
        done = run_in_process("run", *MODEL, "--no-prune", *prompts, home=home, cwd=cwd)
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr
    assert "pruned" not in done.stderr
    last = sent_messages(server)[-1]
    assert [len(str(m["content"])) for m in last if m["role"] == "tool"] == [8000] * 4


@pytest.mark.parametrize(
    ("reserve", "prune"),
    [(23000, PRUNE)],  # raw, the context passes 9,000 tokens at the fifth file; pruned, never
)
def test_compaction_runs_only_when_pruning_is_not_enough(
    reserve: int, prune: dict[str, Any], tmp_path: Path, monkeypatch: Any
) -> None:
    cwd = tmp_path / "work"
    cwd.mkdir()
    names = write_files(cwd, 6)
    compactions = {}
    for on in (True, False):
        server = start_server()
        server.start()
        try:
            prune_settings = {**prune, "enabled": on}
            block = {"reserveTokens": reserve, "keepRecentTokens": 2000, "prune": prune_settings}
            home = write_home(
                tmp_path / f"home{on}", server, settings={"compaction": block}, contextWindow=WINDOW
            )
            monkeypatch.setenv("TETHER_HOME", str(home))
            harness = harness_on(cwd, home)
            for name in names:
                harness.prompt(f"read {name}")
            harness.close()
        finally:
            server.stop()
        branch = harness.session.get_branch()
        compactions[on] = sum(1 for e in branch if e["type"] == "compaction")
    assert compactions == {True: 0, False: compactions[False]} and compactions[False] >= 1


def test_no_prune_keeps_the_instructions_flag() -> None:
    """``--no-prune --instructions TEXT``: both settings, neither overwrites the other."""
    from tether.builtin_plugins.commands import SessionOptions

    options = SessionOptions(instructions="Keep every port number.", no_prune=True)
    compaction = options.settings_overrides()["compaction"]
    assert compaction == {"instructions": "Keep every port number.", "prune": {"enabled": False}}
