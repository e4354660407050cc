"""The ``llm`` summarizer checks the model's reply before it becomes a summary (issue 9, item 6).

A reply that is a tool call, one cut by the output limit (``stopReason length``) or one without
text is not a summary. These tests run WITHOUT the summary gate (``summary_gate`` disabled, as
pi-like mode): ``tether session compact`` fails with one error line naming the summarizer, the
model and what was wrong, exit 1, and the session file stays byte-for-byte unchanged. (With the
gate, the reply is retried and then the offline summarizer takes over:
``tests/test_summary_gate_llm.py``.) Real subprocesses against the loopback OpenAI-compatible
server and the faux provider (the repeated cases of one path run in process).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.cli_in_process import run_in_process
from tests.compaction_helpers import copy_fixture
from tests.context_loader import GEN
from tests.harness_helpers import NO_THIRD_PARTY, run_tether
from tests.servers import OpenAIServer, ToolCall, Usage
from tether.core.host.manager import create_plugin_manager

FIXTURE = GEN / "g03-linear-tools.jsonl"
GOOD = "## Goal\nShip the parser.\n\n## Next Steps\n1. add the --currency flag"


_NO_GATE: list[Any] = []  # the plugin manager of the in-process runs: no summary gate


def tether(
    cwd: Path, *args: str, env: dict[str, str | None] | None = None, process: bool = True
) -> subprocess.CompletedProcess[str]:
    """``tether ARGS`` without the summary gate: a real process, or (``process=False``) in
    this one (tests/cli_in_process.py) for the cases that take the same path again."""
    full: dict[str, str | None] = {"TETHER_DISABLE_PLUGINS": "summary_gate", **(env or {})}
    if process:
        return run_tether(*args, home=cwd / "home", cwd=cwd, env=full, timeout=60)
    if not _NO_GATE:
        _NO_GATE.append(create_plugin_manager(environ={**NO_THIRD_PARTY, **full}))  # type: ignore[dict-item]
    return run_in_process(*args, home=cwd / "home", cwd=cwd, env=full, pm=_NO_GATE[0])


def project(tmp_path: Path, model: str, models: dict[str, Any] | None = None) -> Path:
    (tmp_path / "home").mkdir()
    (tmp_path / ".tether").mkdir()
    settings = {"compaction": {"model": model}}
    (tmp_path / ".tether" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    if models is not None:
        (tmp_path / "home" / "models.json").write_text(json.dumps(models), encoding="utf-8")
    return tmp_path


def loopback_models(server: OpenAIServer) -> dict[str, Any]:
    model = {"id": "summarizer-1", "contextWindow": 64000, "maxTokens": 4096}
    provider = {"baseUrl": server.base_url, "api": "openai-completions", "models": [model]}
    return {"providers": {"loop": provider}}


def compact(
    cwd: Path, env: dict[str, str | None] | None = None, process: bool = True
) -> tuple[Path, bytes, Any]:
    file = copy_fixture(FIXTURE, cwd)
    before = file.read_bytes()
    args = ("session", "compact", str(file), "--summarizer", "llm", "--keep", "3000")
    result = tether(cwd, *args, env=env, process=process)
    return file, before, result


def assert_refused(file: Path, before: bytes, result: Any, model: str, what: str) -> None:
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("tether: error:")]
    assert len(errors) == 1, result.stderr
    assert errors == [result.stderr.strip().splitlines()[-1]]
    line = errors[0]
    assert f"summarizer 'llm' ({model}): " in line, line
    assert what in line, line
    assert "session unchanged" in line
    assert "compacted" not in result.stdout
    assert file.read_bytes() == before


OPENAI_CASES = {
    "tool call": (
        {"text": "Step 1: calling read.", "tool_calls": [ToolCall("read", {"path": "a.py"})]},
        "the model answered with a tool call (stopReason toolUse), not a summary",
    ),
    "length": (
        {"text": "## Goal\nShip the pars", "stop": "length"},
        "the reply was cut off at the output limit (stopReason length",
    ),
    "empty": ({"text": ""}, "the model returned no summary text (stopReason stop)"),
}


@pytest.mark.parametrize("case", sorted(OPENAI_CASES))
def test_openai_reply_that_is_not_a_summary_fails_the_compaction(tmp_path: Path, case: str) -> None:
    fields, what = OPENAI_CASES[case]
    with OpenAIServer() as server:
        server.reply(**fields)
        for _ in range(3):  # a second request (the split turn) would get a good summary
            server.text(GOOD)
        cwd = project(tmp_path, "loop/summarizer-1", loopback_models(server))
        # one case in a real process, the others in this one
        file, before, result = compact(cwd, process=case == min(OPENAI_CASES))
        assert server.requests, "the summarizer did call the server"
    assert_refused(file, before, result, "loop/summarizer-1", what)


FAUX_CASES = {
    "tool call": (
        {"text": "Step 1: calling read.", "toolCalls": [{"name": "read", "arguments": {}}]},
        "the model answered with a tool call (stopReason toolUse), not a summary",
    ),
    "length": (
        {"text": "## Goal\nShip the pars", "stopReason": "length"},
        "the reply was cut off at the output limit (stopReason length",
    ),
    "stop with a tool call": (
        {"text": "x", "toolCalls": [{"name": "read", "arguments": {}}], "stopReason": "stop"},
        "the model answered with a tool call (stopReason stop), not a summary",
    ),
}


@pytest.mark.parametrize("case", sorted(FAUX_CASES))
def test_faux_reply_that_is_not_a_summary_fails_the_compaction(tmp_path: Path, case: str) -> None:
    step, what = FAUX_CASES[case]
    cwd = project(tmp_path, "faux/faux-1")
    script = json.dumps([step, GOOD, GOOD])
    file, before, result = compact(cwd, env={"TETHER_FAUX_SCRIPT": script}, process=False)
    assert_refused(file, before, result, "faux/faux-1", what)


def test_a_normal_reply_still_compacts(tmp_path: Path) -> None:
    cwd = project(tmp_path, "faux/faux-1")
    file, before, result = compact(cwd, env={"TETHER_FAUX_SCRIPT": json.dumps([GOOD, GOOD])})
    assert result.returncode == 0, result.stderr
    last = json.loads(file.read_text(encoding="utf-8").splitlines()[-1])
    assert last["type"] == "compaction" and last["summary"].startswith(GOOD)
    assert file.read_bytes().startswith(before)


def test_auto_compaction_with_a_tool_call_reply_is_one_warning_and_the_run_goes_on(
    tmp_path: Path,
) -> None:
    """Threshold compaction after a run: the refused summary is one warning, exit 0, no
    compaction entry; the next run in the same session compacts with a real summary."""
    with OpenAIServer() as server:
        models = loopback_models(server)
        models["providers"]["loop"]["models"][0].update(contextWindow=4000, maxTokens=1000)
        cwd = project(tmp_path, "loop/summarizer-1", models)
        settings = {"compaction": {"reserveTokens": 1000, "keepRecentTokens": 100}}
        (cwd / ".tether" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
        server.text("first answer " * 20, usage=Usage(input=500, output=60))
        server.text("second answer " * 20, usage=Usage(input=3100, output=60))
        server.reply(text="Step 1: calling read.", tool_calls=[ToolCall("read", {"path": "x"})])
        server.text(GOOD)  # the next run compacts first, this time with a real summary
        server.text("third answer", usage=Usage(input=900, output=5))
        run = ("run", "--model", "loop/summarizer-1")
        first = tether(cwd, *run, "first question " * 30)
        assert first.returncode == 0, first.stderr
        second = tether(cwd, *run, "-c", "second question " * 30)
        (file,) = sorted((cwd / "home" / "sessions").glob("*/*.jsonl"))
        after_second = file.read_bytes()
        third = tether(cwd, *run, "-c", "third question")
        last = server.requests[-1].body
    assert second.returncode == 0, second.stderr
    assert "second answer" in second.stdout
    warnings = [line for line in second.stderr.splitlines() if "Auto-compaction failed" in line]
    assert len(warnings) == 1, second.stderr
    tool_call = "summarizer 'llm' (loop/summarizer-1): the model answered with a tool call"
    assert tool_call in warnings[0]
    assert "Traceback" not in second.stderr and "tether: error" not in second.stderr
    assert third.returncode == 0, third.stderr
    assert third.stdout.strip() == "third answer"
    assert last["stream"] is True and "third question" in str(last["messages"][-1])
    records = [json.loads(line) for line in after_second.decode().splitlines()]
    assert records[-1]["message"]["role"] == "assistant"  # the answer stored, no compaction
    assert "compaction" not in [r["type"] for r in records]
    assert file.read_bytes().startswith(after_second)
    compactions = [r for r in map(json.loads, file.read_text().splitlines()) if "summary" in r]
    assert [c["summary"][: len(GOOD)] for c in compactions] == [GOOD]
