"""The summary gate on the ``llm`` summarizer's path, every rule (issue 9, item 3).

Real ``tether session compact --summarizer llm`` subprocesses against the loopback
OpenAI-compatible server: the model's summary lacks exactly one thing — a section, the goal,
the user's constraint or decision, the next step, the last error — the retry request names it,
the retry lacks it again, and the written summary carries it forward verbatim; the outcome is
on stderr, in ``--json`` and in ``details.gate``. A reply that is no summary (a tool call, a
reply cut at the output limit, an empty text) is retried once, then the offline summarizer
takes over.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.cli_in_process import run_in_process
from tests.gate_helpers import (
    CONSTRAINT,
    DECISION,
    ERROR,
    GOAL,
    ITEMS,
    NEXT_STEP,
    SECTIONS,
    checkpoint,
    fact_messages,
    filler_turns,
    records,
    write_session,
)
from tests.harness_helpers import run_tether
from tests.servers import OpenAIServer, ToolCall
from tether.core.session.session import Session

MODEL = "loop/summarizer-1"
CARRY = "## Carried Forward (restored by the summary gate)"


def project(tmp_path: Path, server: OpenAIServer) -> Path:
    (tmp_path / ".tether").mkdir()
    settings = {"compaction": {"model": MODEL}}
    (tmp_path / ".tether" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    model = {"id": "summarizer-1", "contextWindow": 64000, "maxTokens": 4096}
    provider = {"baseUrl": server.base_url, "api": "openai-completions", "models": [model]}
    home = tmp_path / "home"
    home.mkdir()
    (home / "models.json").write_text(json.dumps({"providers": {"loop": provider}}), "utf-8")
    return tmp_path


def compact(cwd: Path, file: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """``session compact`` in this process (tests/cli_in_process.py); the last test runs the
    gate in real ``tether run`` processes."""
    args = ("session", "compact", str(file), "--summarizer", "llm", "--keep", "400", *extra)
    return run_in_process(*args, home=cwd / "home", cwd=cwd)


def request_text(server: OpenAIServer, index: int) -> str:
    """The texts of a recorded request's messages (string or block content)."""
    texts = []
    for message in server.requests[index].body["messages"]:
        content = message.get("content")
        if isinstance(content, str):
            texts.append(content)
        elif isinstance(content, list):
            texts += [block.get("text", "") for block in content]
    return "\n".join(texts)


def gated(result: subprocess.CompletedProcess[str], file: Path) -> tuple[dict[str, Any], str]:
    """The gate's report (checked to be the same in --json and details.gate) and the summary."""
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    entry = records(file)[-1]
    assert entry["type"] == "compaction" and entry == report["entry"]
    assert entry["details"]["gate"] == report["gate"]
    return report["gate"], entry["summary"]


RULES = [*ITEMS, *SECTIONS]


def expected_label(rule: str) -> str:
    if rule in ITEMS:
        name, value = ITEMS[rule]
        return f'{name} "{value}"'
    return f'section "{rule}"'


@pytest.mark.parametrize("rule", RULES)
def test_a_summary_missing_one_thing_is_retried_naming_it_then_carried_forward(
    tmp_path: Path, rule: str
) -> None:
    file = write_session(tmp_path / "s.jsonl")
    with OpenAIServer() as server:
        server.text(checkpoint(drop=rule))
        server.text(checkpoint(drop=rule))  # the retry lacks it too
        cwd = project(tmp_path, server)
        result = compact(cwd, file, "--json")
        assert len(server.requests) == 2
        first, retry = request_text(server, 0), request_text(server, 1)
    label = expected_label(rule)
    gate, summary = gated(result, file)
    assert gate["verdict"] == "carried_forward"
    assert gate["missing"] == [label] and gate["carried"] == [label]
    assert "summary gate" not in first and "Your previous summary" in retry
    value = ITEMS[rule][1] if rule in ITEMS else rule
    assert f'"{value}"' in retry.split("Additional focus:")[1] or rule in SECTIONS
    if rule in SECTIONS:
        assert f"lacked these sections: {rule}." in retry
    block = summary.split(CARRY)[1].split("<modified-files>")[0]
    assert value in block  # verbatim, under its own heading
    assert summary.startswith(checkpoint(drop=rule))
    assert f"tether: summary gate: carried forward 1 missing item(s) (missing: {label})" in (
        result.stderr
    )


def test_a_retry_that_is_complete_is_written_as_is(tmp_path: Path) -> None:
    file = write_session(tmp_path / "s.jsonl")
    with OpenAIServer() as server:
        server.text(checkpoint(drop="constraint"))
        server.text(checkpoint())
        cwd = project(tmp_path, server)
        result = compact(cwd, file)
    assert result.returncode == 0, result.stderr
    entry = records(file)[-1]
    assert entry["details"]["gate"]["verdict"] == "retried"
    assert entry["details"]["gate"]["missing"] == [f'constraint "{CONSTRAINT}"']
    assert entry["summary"].startswith(checkpoint()) and CARRY not in entry["summary"]
    assert "summary gate: retried once, the retry was complete" in result.stdout


def test_a_complete_summary_passes_with_no_retry(tmp_path: Path) -> None:
    file = write_session(tmp_path / "s.jsonl")
    with OpenAIServer() as server:
        server.text(checkpoint())
        cwd = project(tmp_path, server)
        result = compact(cwd, file, "--json")
        assert len(server.requests) == 1
    gate, summary = gated(result, file)
    assert gate["verdict"] == "passed" and gate["missing"] == []
    # issue 23: the fact ledger (details.gate.ledger) replaces details.gate.carry
    live = {f["kind"]: f["text"] for f in gate["ledger"]["facts"] if f.get("status") == "live"}
    assert live["goal"] == GOAL and live["next_step"] == NEXT_STEP and live["error"] == ERROR
    assert summary.startswith(checkpoint() + "\n\n<modified-files>")


NOT_A_SUMMARY = {
    "tool call": (
        {"text": "Step 1: calling read.", "tool_calls": [ToolCall("read", {"path": "a.py"})]},
        "the model answered with a tool call (stopReason toolUse), not a summary",
    ),
    "length": (
        {"text": "## Goal\nBuild a CLI th", "stop": "length"},
        "the reply was cut off at the output limit (stopReason length",
    ),
    "empty": ({"text": ""}, "the model returned no summary text (stopReason stop)"),
}


@pytest.mark.parametrize("case", sorted(NOT_A_SUMMARY))
def test_a_reply_that_is_no_summary_twice_hands_over_to_the_offline_summarizer(
    tmp_path: Path, case: str
) -> None:
    fields, what = NOT_A_SUMMARY[case]
    file = write_session(tmp_path / "s.jsonl")
    with OpenAIServer() as server:
        server.reply(**fields)
        server.reply(**fields)
        cwd = project(tmp_path, server)
        result = compact(cwd, file, "--json")
        assert len(server.requests) == 2
        retry = request_text(server, 1)
    gate, summary = gated(result, file)
    problem = f"summarizer 'llm' ({MODEL}): {what}"
    assert gate["verdict"] == "fallback"
    assert gate["missing"][0].startswith(f"reply: {problem}")
    assert "Your previous answer was not a summary (" + problem in retry
    assert json.loads(result.stdout)["summarizer"] == "offline"
    for fact in (GOAL, CONSTRAINT, DECISION, ERROR, NEXT_STEP):
        assert fact in summary
    assert "Step 1: calling read." not in summary
    assert "tether: summary gate: the offline summarizer took over" in result.stderr


def test_a_reply_that_is_no_summary_then_a_good_one_is_retried(tmp_path: Path) -> None:
    file = write_session(tmp_path / "s.jsonl")
    with OpenAIServer() as server:
        server.reply(text="x", tool_calls=[ToolCall("read", {"path": "a.py"})])
        server.text(checkpoint())
        cwd = project(tmp_path, server)
        result = compact(cwd, file, "--json")
    gate, summary = gated(result, file)
    assert gate["verdict"] == "retried" and summary.startswith(checkpoint())
    assert json.loads(result.stdout)["summarizer"] == "llm"


def test_a_failing_retry_still_carries_forward(tmp_path: Path) -> None:
    """The retry's request fails (HTTP 400): the first answer plus the carried block."""
    file = write_session(tmp_path / "s.jsonl")
    with OpenAIServer() as server:
        server.text(checkpoint(drop="decision"))
        server.error(400, "bad request")
        cwd = project(tmp_path, server)
        result = compact(cwd, file)
    assert result.returncode == 0, result.stderr
    entry = records(file)[-1]
    assert entry["details"]["gate"]["verdict"] == "carried_forward"
    assert DECISION in entry["summary"].split(CARRY)[1]


def test_constraints_and_decisions_of_the_previous_summary_are_required(tmp_path: Path) -> None:
    """A previous summary's constraint and decision (not in the messages summarized now) are
    named in the retry and carried forward."""
    old_constraint = "Always return errors as RFC 7807 problem+json bodies."
    old_decision = "We decided to partition the sales table by month instead of by day."
    previous = (
        checkpoint()
        .replace(f"- {CONSTRAINT}", f'- {CONSTRAINT}\n- "{old_constraint}"')
        .replace(f"- {DECISION}", f"- {DECISION}\n- {old_decision}")
    )
    file = tmp_path / "s.jsonl"
    session = Session.open(file, create=True, cwd=str(tmp_path))
    ids = [session.append_message(m) for m in fact_messages()]
    session.append_compaction(
        previous, ids[-2], 500, details={"readFiles": [], "modifiedFiles": []}
    )
    for message in filler_turns(4):
        session.append_message(message)
    with OpenAIServer() as server:
        server.text(checkpoint())
        server.text(checkpoint())
        cwd = project(tmp_path, server)
        result = compact(cwd, file, "--json")
        retry = request_text(server, 1)
    gate, summary = gated(result, file)
    wanted = [f'constraint "{old_constraint}"', f'decision "{old_decision}"']
    assert gate["verdict"] == "carried_forward" and gate["carried"] == wanted
    assert f'"{old_constraint}"' in retry and f'"{old_decision}"' in retry
    block = summary.split(CARRY)[1]
    assert old_constraint in block and old_decision in block


def test_run_json_reports_the_gate_in_the_compaction_end_event(tmp_path: Path) -> None:
    """An overflow compaction during ``tether run --json``: the ``compaction_end`` event
    carries ``gate`` (the entry's ``details.gate``)."""
    with OpenAIServer() as server:
        cwd = project(tmp_path, server)
        settings = {"compaction": {"model": MODEL, "keepRecentTokens": 20}}
        (cwd / ".tether" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
        server.text("long answer " * 40)
        first = run_tether("run", "--model", MODEL, "first " * 40, home=cwd / "home", cwd=cwd)
        assert first.returncode == 0, first.stderr
        server.overflow()
        server.text(checkpoint(drop="decision"))
        server.text(checkpoint(drop="decision"))
        server.text("recovered")
        args = ("run", "--json", "-c", "--model", MODEL, "second")
        done = run_tether(*args, home=cwd / "home", cwd=cwd)
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    (end,) = [e for e in events if e.get("type") == "compaction_end"]
    assert end["gate"]["verdict"] == "carried_forward"
    assert end["gate"] == end["result"]["details"]["gate"]
    assert "summary gate" not in done.stderr  # --json: the event says it
