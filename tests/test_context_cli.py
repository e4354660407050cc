"""``tether session context`` / ``estimate`` as a user runs them: options, errors, speed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.cli_in_process import run_in_process
from tests.context_loader import GEN, golden, load_entries
from tests.harness_helpers import NO_THIRD_PARTY
from tests.store_helpers import run_tether
from tether.core.context.build import build_session_context

BRANCHED = GEN / "g16-branched.jsonl"
SMALL = GEN / "g01-tiny-linear.jsonl"

# pi parity is about the built-ins: installed third-party plugins (e.g. a context hook) stay off
BUILTINS_ONLY = {**os.environ, **NO_THIRD_PARTY}


def tether(*args: str) -> subprocess.CompletedProcess[str]:
    return run_tether(*args, env=NO_THIRD_PARTY)


def context_json(*args: str) -> dict:
    """``session context ARGS --json`` in this process (the tests below run real ones)."""
    done = run_in_process("session", "context", *args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_leaf_option_selects_a_branch_and_null_means_before_the_first_entry() -> None:
    _, entries = load_entries(BRANCHED)
    other_leaf = next(e["id"] for e in entries[:40] if e["type"] == "message")
    result = context_json(str(BRANCHED), "--leaf", other_leaf)
    expected = build_session_context(entries, other_leaf)
    assert result["leafId"] == other_leaf
    assert result["messages"] == expected.messages
    assert len(result["messages"]) < len(context_json(str(BRANCHED))["messages"])
    empty = context_json(str(BRANCHED), "--leaf", "null")
    assert empty["leafId"] is None and empty["messages"] == [] and empty["llmMessages"] == []
    assert (empty["thinkingLevel"], empty["model"]) == ("off", None)


def test_unknown_leaf_and_missing_file_are_one_line_errors() -> None:
    done = tether("session", "context", str(BRANCHED), "--leaf", "nope")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"tether: error: {BRANCHED}: --leaf: no entry with id 'nope'"
    ]
    missing = tether("session", "context", str(GEN / "does-not-exist.jsonl"))
    assert missing.returncode != 0 and "Traceback" not in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1
    assert "does-not-exist.jsonl" in missing.stderr


def test_quiet_prints_only_counts() -> None:
    _, entries = load_entries(BRANCHED)
    expected = len(build_session_context(entries).messages)
    done = tether("session", "context", str(BRANCHED), "--quiet", "--json")
    summary = json.loads(done.stdout)
    assert summary["messageCount"] == expected and "messages" not in summary
    text = run_in_process("session", "context", str(BRANCHED), "--quiet").stdout
    assert text.strip().splitlines() == [
        f"entries {len(entries)}  messages {expected}  llm messages {summary['llmMessageCount']}"
    ]


def test_text_mode_shows_role_headers_and_truncates_long_content() -> None:
    path = GEN / "g08-long-outputs.jsonl"
    done = tether("session", "context", str(path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("leaf ") and "model " in lines[0]
    assert any(line.startswith("[1] user") for line in lines)
    assert any(line.startswith("[") and "toolResult" in line for line in lines)
    assert any("chars)" in line for line in lines)
    assert max(len(line) for line in lines) < 400  # >50 KB outputs are not dumped


def test_lone_surrogates_survive_the_json_output(tmp_path: Path) -> None:
    header = {"type": "session", "version": 3, "id": "s1", "timestamp": "2025-01-01T00:00:00.000Z"}
    message = {"role": "user", "content": [{"type": "text", "text": "cut \ud83d"}], "timestamp": 1}
    entry = {"type": "message", "id": "a1", "parentId": None, "timestamp": header["timestamp"]}
    path = tmp_path / "s.jsonl"
    lines = [json.dumps(header), json.dumps({**entry, "message": message})]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = context_json(str(path))
    assert result["messages"][0]["content"][0]["text"] == "cut \ud83d"


def test_estimate_text_mode_lists_entries_and_the_threshold() -> None:
    done = tether("session", "estimate", str(SMALL), "--window", "1000", "--reserve", "100")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.splitlines()[0].split() == ["id", "type", "role", "tokens"]
    assert "context tokens" in out and "compaction           yes" in out


# Session commands never need these: HTTP, pydantic, token encodings, prompt assembly, providers.
HEAVY_MODULES = (
    "httpx",
    "pydantic",
    "tiktoken",
    "sqlite3",
    "psycopg",
    "tether.builtin_plugins.storage.sql.database",
    "tether.core.agent.prompt",
    "tether.hookspecs.providers",
    "tether.builtin_plugins.providers.models.registry",
    "tether.core.agent.tools",
    "tether.hookspecs.prompt",
    "tether.hookspecs.tools",
)


# the JSONL store plugin (its scanner, encoder, pi's format) and the commands' choice of store;
# no database store's code
STORE_MODULES = (
    "tether.builtin_plugins.storage.jsonl.",
    "tether.builtin_plugins.storage.format.",
    "tether.builtin_plugins.commands.store_select",
)


def test_context_on_a_small_file_imports_only_what_it_needs() -> None:
    probe = (
        "import sys\n"
        f"STORE = {STORE_MODULES!r}\n"
        "from tether.core.cli.app import main\n"
        f"code = main(['session', 'context', {str(SMALL)!r}, '--quiet'])\n"
        f"heavy = sorted(set(sys.modules) & {set(HEAVY_MODULES)!r})\n"
        "from importlib.metadata import entry_points\n"
        "plugins = {e.value for e in entry_points(group='tether.plugins')}\n"
        "helpers = sorted(m for m in sys.modules if m.startswith('tether.builtin_plugins.')\n"
        "    and m not in plugins and not m.startswith(STORE)\n"
        "    and not (sys.modules[m].__file__ or '').endswith('__init__.py'))\n"
        "print(code, heavy, helpers)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, env=BUILTINS_ONLY
    )
    # every built-in plugin is loaded, yet no tool, summarizer or provider code is imported
    expected = "0 [] []"  # plugin modules, their packages and the file's store only
    assert done.stdout.strip().splitlines()[-1] == expected, done.stdout + done.stderr


def test_skipped_lines_are_reported_with_line_numbers_unlike_pi() -> None:
    # pi drops unparsable lines silently (its golden context is still the reference);
    # tether builds the same context and names every skipped line on stderr (design §8.3).
    path = GEN / "e37-malformed-lines.jsonl"
    raw_lines = path.read_text(encoding="utf-8").split("\n")
    bad = []
    for number, line in enumerate(raw_lines, 1):
        if line.strip():
            try:
                json.loads(line)
            except ValueError:
                bad.append(number)
    assert bad, "the fixture has malformed lines"
    done = tether("session", "context", str(path), "--json")
    assert done.returncode == 0, done.stderr
    assert (
        json.loads(done.stdout)["messages"] == golden("e37-malformed-lines", "context")["messages"]
    )
    warned = [
        int(line.split(f"{path}:", 1)[1].split(":", 1)[0])
        for line in done.stderr.splitlines()
        if line.startswith(f"tether: warning: {path}:")
    ]
    assert set(bad) <= set(warned)


def test_inspecting_a_legacy_file_never_rewrites_it_unlike_pi(tmp_path: Path) -> None:
    name = "e35-legacy-v1"
    copy = tmp_path / f"{name}.jsonl"
    shutil.copyfile(GEN / f"{name}.jsonl", copy)
    before = copy.read_bytes()
    pi = golden(name, "context")
    assert pi["migrated"] and pi["rewrittenByPi"]  # pi rewrites a v1 file when it opens it
    for command in ("context", "estimate"):
        done = tether("session", command, str(copy), "--json")
        assert done.returncode == 0, done.stderr
        assert "migrated to v3 in memory" in done.stderr
    assert copy.read_bytes() == before  # tether migrates in memory and leaves the file alone
    assert sorted(p.name for p in tmp_path.iterdir()) == [copy.name]  # no backup either
