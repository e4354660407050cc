"""``tether session compact`` and ``tether session branch`` as real subprocesses.

The LLM summarizer talks to a real loopback OpenAI-compatible server; a server error or a
timeout leaves the session file byte-for-byte unchanged and prints one line, no traceback.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.cli_in_process import run_in_process
from tests.compaction_helpers import add_round, copy_fixture, new_session, records
from tests.context_loader import FIXTURES, GEN
from tests.harness_helpers import run_tether
from tests.servers import OpenAIServer, Reply
from tests.servers.base import is_turn_prefix_request
from tether.core.session.session import Session

STORE_PI = FIXTURES.parent / "store_pi"
SUMMARY = "## Goal\nShip the parser.\n\n## Progress\n### Done\n- [x] tokenizer"


def tether(
    cwd: Path, *args: str, timeout: float = 60, disable: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Only the built-ins (no installed example plugin interferes), the home in ``cwd/home``;
    ``disable`` blocks built-ins by name."""
    unset = {"TETHER_DISABLE_PLUGINS": disable}
    return run_tether(*args, home=cwd / "home", cwd=cwd, env=unset, timeout=timeout)


def project(tmp_path: Path, compaction: dict[str, Any] | None = None, models: Any = None) -> Path:
    (tmp_path / "home").mkdir()
    if compaction is not None:
        (tmp_path / ".tether").mkdir()
        (tmp_path / ".tether" / "settings.json").write_text(
            json.dumps({"compaction": compaction}), encoding="utf-8"
        )
    if models is not None:
        (tmp_path / "home" / "models.json").write_text(json.dumps(models), encoding="utf-8")
    return tmp_path


def loopback_models(server: OpenAIServer) -> dict[str, Any]:
    return {
        "providers": {
            "loop": {
                "baseUrl": server.base_url,
                "api": "openai-completions",
                "models": [{"id": "summarizer-1", "contextWindow": 64000, "maxTokens": 4096}],
            }
        }
    }


def context_json(cwd: Path, file: Path) -> dict[str, Any]:
    """``session context --json``, in this process (tests/cli_in_process.py)."""
    result = run_in_process("session", "context", str(file), "--json", home=cwd / "home", cwd=cwd)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_compact_then_context_shows_summary_then_kept_entries(tmp_path: Path) -> None:
    cwd = project(tmp_path)
    file = copy_fixture(GEN / "g03-linear-tools.jsonl", tmp_path)
    result = tether(
        cwd, "session", "compact", str(file), "--summarizer", "offline", "--keep", "3000"
    )
    assert result.returncode == 0, result.stderr
    assert "summarizer: offline" in result.stdout
    assert "tether: summarizing" in result.stderr  # progress while the summarizer runs
    entries = records(file)[1:]
    compaction = entries[-1]
    assert compaction["type"] == "compaction" and compaction["fromHook"] is False
    context = context_json(cwd, file)
    assert context["leafId"] == compaction["id"]
    first, *rest = context["messages"]
    assert first["role"] == "compactionSummary" and first["summary"] == compaction["summary"]
    ids = [e["id"] for e in entries]
    kept = entries[ids.index(compaction["firstKeptEntryId"]) : -1]
    assert rest == [e["message"] for e in kept if e["type"] == "message"]
    assert "<modified-files>" in compaction["summary"]


def test_nothing_to_compact_is_a_message_not_a_model_call(tmp_path: Path) -> None:
    cwd = project(tmp_path, {"summarizer": "llm", "model": "loop/summarizer-1"})
    file = copy_fixture(GEN / "g01-tiny-linear.jsonl", tmp_path)
    before = file.read_bytes()
    result = tether(cwd, "session", "compact", str(file))  # default keep: everything fits
    assert result.returncode == 0, result.stderr
    assert "nothing to compact" in result.stdout
    assert result.stdout.lower().count("nothing to compact") == 1  # said once, not echoed
    assert file.read_bytes() == before


def test_llm_summarizer_request_goes_to_the_loopback_server(tmp_path: Path) -> None:
    with OpenAIServer() as server:
        server.answer_split_turn(Reply(SUMMARY), Reply("## Original Request\nparse it"))
        cwd = project(tmp_path, {"model": "loop/summarizer-1"}, loopback_models(server))
        file = copy_fixture(GEN / "g03-linear-tools.jsonl", tmp_path)
        args = ("session", "compact", str(file), "--keep", "3000", "--instructions", "the parser")
        result = tether(cwd, *args, disable="summary_gate")  # pi's requests, no gate retry
        assert result.returncode == 0, result.stderr
        assert "summarizer: llm (loop/summarizer-1)" in result.stdout
        bodies = [r.body for r in server.requests]
    assert [b["model"] for b in bodies] == ["summarizer-1", "summarizer-1"]  # history + prefix
    (history,) = [b for b in bodies if not is_turn_prefix_request(b)]
    history_text = json.dumps(history["messages"])
    assert "<conversation>" in history_text and "the parser" in history_text
    summary = records(file)[-1]["summary"]
    assert summary.startswith(SUMMARY + "\n\n---\n\n**Turn Context (split turn):**\n\n")


@pytest.mark.parametrize("failure", ["server error", "timeout"])
def test_failing_llm_summarizer_leaves_the_file_untouched(tmp_path: Path, failure: str) -> None:
    with OpenAIServer() as server:
        if failure == "server error":
            for _ in range(8):
                server.error(500, "upstream exploded")
        else:
            for _ in range(8):
                server.reply(text="late", headers_delay=5.0)
        compaction = {"model": "loop/summarizer-1", "timeoutSeconds": 1}
        cwd = project(tmp_path, compaction, loopback_models(server))
        file = copy_fixture(GEN / "g03-linear-tools.jsonl", tmp_path)
        before = file.read_bytes()
        result = tether(cwd, "session", "compact", str(file), "--keep", "3000", timeout=120)
        assert server.requests, "the summarizer did call the server"
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert lines[-1].startswith("tether: error: ") and "compaction failed" in lines[-1]
    assert "llm_summarizer" in lines[-1] and "session unchanged" in lines[-1]
    assert "Traceback" not in result.stderr
    assert file.read_bytes() == before


def test_five_compactions_in_a_row_keep_every_file(tmp_path: Path) -> None:
    cwd = project(tmp_path)
    file = tmp_path / "grow.jsonl"
    seen: set[str] = set()
    lists: list[set[str]] = []
    for step in range(5):
        session = Session.open(file, create=True) if file.exists() else new_session(file)
        for n in range(3):
            add_round(session, step * 3 + n, words=30)
        args = ("session", "compact", str(file), "--summarizer", "offline", "--keep", "120")
        # the first compaction in a real process, the next ones in this one
        result = (
            tether(cwd, *args) if step == 0 else run_in_process(*args, home=cwd / "home", cwd=cwd)
        )
        assert result.returncode == 0, result.stderr
        entry = records(file)[-1]
        assert entry["type"] == "compaction"
        listed = set(entry["details"]["readFiles"]) | set(entry["details"]["modifiedFiles"])
        assert seen <= listed, f"compaction {step} lost {sorted(seen - listed)}"
        seen = listed
        lists.append(listed)
        context = context_json(cwd, file)
        assert context["messages"][0]["summary"] == entry["summary"]
        for earlier in range(step * 3):  # the requests of every summarized round are still there
            assert f"round {earlier}:" in entry["summary"]
    assert len(lists[-1]) >= 3 * 12


def test_branch_command_with_summary_and_label(tmp_path: Path) -> None:
    cwd = project(tmp_path)
    file = copy_fixture(GEN / "g16-branched.jsonl", tmp_path)
    result = tether(
        cwd,
        "session",
        "branch",
        str(file),
        "--to",
        "53bdd9e9",
        "--summarize",
        "--label",
        "back",
        "--summarizer",
        "offline",
        "--json",
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    summary, label = records(file)[-2:]
    assert report["summaryEntry"] == summary and report["labelEntry"] == label
    assert (summary["type"], summary["parentId"], summary["fromId"]) == (
        "branch_summary",
        "53bdd9e9",
        "53bdd9e9",
    )
    assert summary["details"]["abandonedLeafId"] == "b158c406" == report["oldLeafId"]
    assert (label["targetId"], label["label"]) == (summary["id"], "back")
    assert report["summarizer"] == "offline"
    context = context_json(cwd, file)
    assert context["leafId"] == label["id"]
    assert context["messages"][-1]["role"] == "branchSummary"


def test_branch_command_without_summary_moves_the_leaf_for_good(tmp_path: Path) -> None:
    cwd = project(tmp_path)
    file = copy_fixture(GEN / "g16-branched.jsonl", tmp_path)
    result = tether(cwd, "session", "branch", str(file), "--to", "53bdd9e9")
    assert result.returncode == 0, result.stderr
    assert "leaf moved from b158c406 to 53bdd9e9" in result.stdout
    assert context_json(cwd, file)["leafId"] == "53bdd9e9"


def test_branch_command_errors_are_one_line(tmp_path: Path) -> None:
    cwd = project(tmp_path)
    file = copy_fixture(GEN / "g16-branched.jsonl", tmp_path)
    before = file.read_bytes()
    unknown = tether(cwd, "session", "branch", str(file), "--to", "feedbeef")
    assert unknown.returncode == 1
    assert unknown.stderr.strip() == f"tether: error: {file}: no entry with id 'feedbeef'"
    usage = tether(cwd, "session", "branch", str(file), "--to", "53bdd9e9", "--instructions", "x")
    assert usage.returncode == 2 and "--instructions needs --summarize" in usage.stderr
    assert file.read_bytes() == before


def test_a_session_of_an_unconfigured_provider_is_summarized_offline(tmp_path: Path) -> None:
    # pi sessions made with a provider tether has no configuration for (google, fake): the
    # default summarizer is offline, said once on stderr; nothing asks a model
    cwd = project(tmp_path)
    google = copy_fixture(GEN / "g03-linear-tools.jsonl", tmp_path)
    assert '"provider":"google"' in google.read_text(encoding="utf-8")
    compact = tether(cwd, "session", "compact", str(google), "--keep", "3000")
    assert compact.returncode == 0, compact.stderr
    assert "(summarizer: offline)" in compact.stdout
    notes = [line for line in compact.stderr.splitlines() if "warning" in line]
    assert notes == [
        "tether: warning: the session's model google/gemini-2.5-pro: provider 'google' is not "
        "configured, so the offline summarizer writes the summary (set compaction.model, or "
        "add the provider to models.json)"
    ]
    assert records(google)[-1]["type"] == "compaction"

    fake = copy_fixture(STORE_PI / "fork-source.jsonl", tmp_path)
    branch = tether(cwd, "session", "branch", str(fake), "--to", "e9774166", "--summarize")
    assert branch.returncode == 0, branch.stderr
    assert "(summarizer: offline)" in branch.stdout
    assert [line for line in branch.stderr.splitlines() if "warning" in line] == [
        "tether: warning: the session's model fake/fake-a: provider 'fake' is not configured, "
        "so the offline summarizer writes the summary (set compaction.model, or add the "
        "provider to models.json)"
    ]
    assert records(fake)[-1]["type"] == "branch_summary"


def test_a_session_of_a_configured_provider_still_asks_the_model(tmp_path: Path) -> None:
    # the same session once models.json configures its provider: the llm summarizer runs
    with OpenAIServer() as server:
        models = loopback_models(server)
        models["providers"]["fake"] = models["providers"].pop("loop")
        models["providers"]["fake"]["models"][0]["id"] = "fake-a"
        cwd = project(tmp_path, models=models)
        server.text(SUMMARY)
        fake = copy_fixture(STORE_PI / "fork-source.jsonl", tmp_path)
        branch = tether(cwd, "session", "branch", str(fake), "--to", "e9774166", "--summarize")
    assert branch.returncode == 0, branch.stderr
    assert "(summarizer: llm)" in branch.stdout
    assert "warning" not in branch.stderr
    assert len(server.requests) == 1
