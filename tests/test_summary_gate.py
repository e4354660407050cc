"""The summary gate in-process: the kernel's ``compact`` with scripted summarizers and
strategies (issue 9, item 3). The LLM path over HTTP is in ``test_summary_gate_llm.py``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tether
from tests.compaction_helpers import hooks_with, settings
from tests.gate_helpers import (
    COMMAND,
    CONSTRAINT,
    ERROR,
    FILE,
    GOAL,
    NEXT_STEP,
    checkpoint,
    fact_messages,
    filler_turns,
    records,
    tool_turn,
    user,
    write_session,
)
from tether.builtin_plugins.memory.summary_gate.carry import (
    CARRY_HEADING,
    CARRY_MAX_CHARS,
    missing_items,
    normalized,
)
from tether.builtin_plugins.memory.summary_gate.required import RequiredItem
from tether.core.base.errors import TetherError
from tether.core.hooks.facade import Hooks
from tether.core.host.manager import create_plugin_manager
from tether.core.memory.compaction import compact
from tether.core.session.session import Session
from tether.hookspecs import hookimpl
from tether.hookspecs.events import CompactionPreparation, PrepareRequest, SummarizeRequest, Summary
from tether.hookspecs.gate import gate_line

KEEP = settings(keepRecentTokens=400)


class Scripted:
    """Summarizer ``scripted`` (claims the default): answers ``texts`` in turn, then the last;
    its answers say they were written by ``name``."""

    def __init__(self, *texts: str, problem: str | None = None, name: str = "scripted") -> None:
        self.texts = list(texts)
        self.problem = problem
        self.name = name
        self.requests: list[SummarizeRequest] = []

    @hookimpl
    def register_summarizers(self, register: Any) -> None:
        register(self.name if self.name == "offline" else "scripted", self.summarize, default=True)

    def summarize(self, request: SummarizeRequest) -> Summary:
        self.requests.append(request)
        text = self.texts[min(len(self.requests), len(self.texts)) - 1]
        return Summary(text=text, summarizer=self.name, reply_problem=self.problem)


def run(path: Path, *plugins: tuple[str, object], **options: Any) -> Any:
    session = Session.open(path)
    return compact(session, hooks_with(*plugins), options.get("settings", KEEP))


def test_the_offline_summarizer_passes_the_gate(tmp_path: Path) -> None:
    file = write_session(tmp_path / "s.jsonl")
    outcome = compact(
        Session.open(file), hooks_with(), settings(keepRecentTokens=400, summarizer="offline")
    )
    assert outcome.gate is not None and outcome.gate["verdict"] == "passed"
    assert records(file)[-1]["details"]["gate"] == outcome.gate


def test_a_strategy_without_file_lists_gets_its_files_carried_forward(tmp_path: Path) -> None:
    """A custom strategy that reports no file operations: the written file must still be in
    the summary — the gate finds it in the messages' write calls."""
    file = write_session(tmp_path / "s.jsonl")

    class NoFiles:
        @hookimpl
        def register_compaction_strategies(self, register: Any) -> None:
            register("nofiles", self.prepare, default=True)

        def prepare(self, request: PrepareRequest) -> CompactionPreparation:
            path = request.path
            messages = [e["message"] for e in path if e.get("type") == "message"]
            return CompactionPreparation(
                first_kept_entry_id=path[-2]["id"],
                messages_to_summarize=messages[:-2],
                turn_prefix_messages=[],
                is_split_turn=False,
                tokens_before=1000,
                previous_summary=None,
                file_ops={"read": [], "written": [], "edited": []},
                settings=request.settings,
            )

    summarizer = Scripted(checkpoint(drop="file"))
    outcome = run(file, ("scripted", summarizer), ("nofiles", NoFiles()))
    assert outcome.gate["verdict"] == "carried_forward"
    assert outcome.gate["carried"] == [f'file "{FILE}"']
    assert f'- Modified Files: "{FILE}"' in (summarizer.requests[1].custom_instructions or "")
    summary = outcome.entry["summary"]
    assert f"### Modified Files\n- `{FILE}`" in summary.split(CARRY_HEADING)[1]
    assert "<modified-files>" not in summary


def test_the_last_error_and_next_step_are_remembered_across_compactions(tmp_path: Path) -> None:
    """The second compaction summarizes only filler turns: the error and the next step are
    still required (from ``details.gate.carry``) and carried forward when dropped."""
    file = write_session(tmp_path / "s.jsonl")
    summarizer = Scripted(checkpoint())
    first = run(file, ("scripted", summarizer))
    assert first.gate["verdict"] == "passed"
    session = Session.open(file)
    for message in filler_turns(4, start=10):
        session.append_message(message)
    dropping = Scripted(checkpoint(drop="error").replace(f"1. {NEXT_STEP}", "1. Keep going"))
    second = run(file, ("scripted", dropping))
    assert second.gate["verdict"] == "carried_forward"
    assert second.gate["carried"] == [f'next step "{NEXT_STEP}"', f'error "{ERROR}"']
    assert "Last error" in second.entry["summary"]


def test_an_error_resolved_later_is_no_longer_required(tmp_path: Path) -> None:
    file = write_session(tmp_path / "s.jsonl")
    run(file, ("scripted", Scripted(checkpoint())))
    session = Session.open(file)
    for message in [
        user("Try again."),
        *tool_turn("c2", "bash", {"command": COMMAND}, "ok", False),
    ]:
        session.append_message(message)
    for message in filler_turns(4, start=10):
        session.append_message(message)
    second = run(file, ("scripted", Scripted(checkpoint(drop="error"))))
    facts = second.gate["ledger"]["facts"]  # issue 23: the ledger replaces details.gate.carry
    assert [f["status"] for f in facts if f["kind"] == "error"] == ["resolved"]
    # no longer an open error (Blocked), but what went wrong is kept as history, under Done
    assert second.gate["verdict"] != "fallback"
    summary = second.entry["summary"]
    blocked = summary.split("### Blocked", 1)[1].split("\n#", 1)[0]
    assert ERROR not in blocked
    assert f'Fixed since: "{ERROR}"' in summary


def test_a_block_over_the_cap_hands_over_to_the_offline_summarizer(tmp_path: Path) -> None:
    rules = [f"Never touch the module number {n} {'x' * 200} in any way." for n in range(25)]
    messages = [user(GOAL)]
    for rule in rules:
        messages += [user(rule), *fact_messages()[1:2]]
    file = write_session(tmp_path / "s.jsonl", messages + filler_turns(3))
    summarizer = Scripted(checkpoint())
    outcome = run(file, ("scripted", summarizer))
    assert len(summarizer.requests) == 2  # the first answer and the retry
    assert outcome.gate["verdict"] == "fallback" and outcome.summarizer == "offline"
    assert all(rule in outcome.entry["summary"] for rule in rules)
    assert CARRY_HEADING not in outcome.entry["summary"]


def test_a_block_within_the_cap_carries_every_missing_constraint(tmp_path: Path) -> None:
    """Twelve constraints the summary lacks fit the block (at most CARRY_MAX_CHARS)."""
    rules = [f"Never touch the module number {n} {'y' * 100}." for n in range(12)]
    messages = [user(GOAL)]
    for rule in rules:
        messages += [user(rule), *fact_messages()[1:2]]
    file = write_session(tmp_path / "s.jsonl", messages + filler_turns(3))
    outcome = run(file, ("scripted", Scripted(checkpoint())))
    assert outcome.gate["verdict"] == "carried_forward"
    block = outcome.entry["summary"].split(CARRY_HEADING)[1].split("<modified-files>")[0]
    assert len(CARRY_HEADING + block.rstrip()) <= CARRY_MAX_CHARS
    assert all(rule in block for rule in rules)


class OwnGate:
    """A third party's gate: accepts any summary and stamps it."""

    def __init__(self) -> None:
        self.checks: list[tether.SummaryCheck] = []

    @hookimpl
    def gate_summary(self, check: tether.SummaryCheck) -> tether.GateVerdict:
        self.checks.append(check)
        return tether.GateVerdict(
            check.text + "\n\n(checked by my gate)", "passed", record={"by": "mine"}
        )


@pytest.mark.parametrize("disable_builtin", [True, False])
def test_a_third_party_gate_replaces_the_builtin(tmp_path: Path, disable_builtin: bool) -> None:
    file = write_session(tmp_path / "s.jsonl")
    own, summarizer = OwnGate(), Scripted("## Goal\nonly a goal")
    environ = {"TETHER_DISABLE_PLUGINS": "summary_gate"} if disable_builtin else {}
    pm = tether.create_plugin_manager(
        plugins=[("scripted", summarizer), ("own-gate", own)], environ=environ
    )
    outcome = compact(Session.open(file), tether.Hooks(pm), KEEP)
    assert len(own.checks) == 1 and len(summarizer.requests) == 1  # no built-in retry
    assert own.checks[0].text == "## Goal\nonly a goal"
    assert own.checks[0].modified_files == [FILE]
    assert outcome.gate == {"verdict": "passed", "missing": [], "by": "mine"}
    assert outcome.entry["summary"].startswith("## Goal\nonly a goal\n\n(checked by my gate)")
    assert records(file)[-1]["details"]["gate"]["by"] == "mine"


def test_without_a_gate_the_summary_is_written_as_pi_would(tmp_path: Path) -> None:
    file = write_session(tmp_path / "s.jsonl")
    summarizer = Scripted("[oracle summary]")
    pm = tether.create_plugin_manager(
        plugins=[("scripted", summarizer)], environ={"TETHER_DISABLE_PLUGINS": "summary_gate"}
    )
    outcome = compact(Session.open(file), tether.Hooks(pm), KEEP)
    assert outcome.gate is None and "gate" not in outcome.entry["details"]
    assert outcome.entry["summary"].startswith("[oracle summary]\n\n<modified-files>")


def test_without_a_gate_a_reply_problem_fails_and_writes_nothing(tmp_path: Path) -> None:
    file = write_session(tmp_path / "s.jsonl")
    before = file.read_bytes()
    summarizer = Scripted("Step 1", problem="summarizer 'x': a tool call")
    pm = tether.create_plugin_manager(
        plugins=[("scripted", summarizer)], environ={"TETHER_DISABLE_PLUGINS": "summary_gate"}
    )
    chosen = "summarizer 'scripted': summarizer 'x'"  # the chosen name first
    with pytest.raises(TetherError, match=f"compaction failed \\(session unchanged\\): {chosen}"):
        compact(Session.open(file), tether.Hooks(pm), KEEP)
    assert file.read_bytes() == before


def test_a_gate_that_raises_fails_the_compaction_naming_it(tmp_path: Path) -> None:
    file = write_session(tmp_path / "s.jsonl")
    before = file.read_bytes()

    class Broken:
        @hookimpl
        def gate_summary(self, check: Any) -> None:
            raise RuntimeError("gate exploded")

    with pytest.raises(TetherError, match="broken-gate"):
        run(file, ("scripted", Scripted(checkpoint())), ("broken-gate", Broken()))
    assert file.read_bytes() == before


def test_items_match_whatever_the_markup() -> None:
    item = RequiredItem("constraint", CONSTRAINT, "test")
    assert missing_items("- **Never** write outside the `out/` directory", "", [item]) == []
    assert missing_items("- Never write outside the output directory.", "", [item]) == [item]
    label = RequiredItem("decision", "Decision: use reportlab.", "test")
    assert missing_items("## Key Decisions\n- Use reportlab", "", [label]) == []
    assert normalized("A  b-C!") == " a b c "


def test_the_gate_line_names_the_missing_items() -> None:
    report = {
        "verdict": "carried_forward",
        "missing": ['constraint "x"'],
        "carried": ['constraint "x"'],
    }
    assert (
        gate_line(report)
        == 'summary gate: carried forward 1 missing item(s) (missing: constraint "x")'
    )
    assert gate_line({"verdict": "passed", "missing": []}) == "summary gate: passed"


def test_an_offline_summary_is_not_retried(tmp_path: Path) -> None:
    """The offline summarizer is deterministic: what it lacks is carried forward at once."""
    file = write_session(tmp_path / "s.jsonl")
    summarizer = Scripted(checkpoint(drop="constraint"), name="offline")
    # registered as "offline" in place of the built-in: a summary counts as the offline
    # summarizer's by the name it was chosen by, not by the name it gives itself
    pm = create_plugin_manager(
        plugins=[("scripted", summarizer)], environ={}, disabled=["offline_summarizer"]
    )
    outcome = compact(Session.open(file), Hooks(pm), KEEP)
    assert len(summarizer.requests) == 1
    assert outcome.gate["verdict"] == "carried_forward"
    assert outcome.gate["carried"] == [f'constraint "{CONSTRAINT}"']


def test_the_cause_of_a_fixed_failure_is_carried_under_done(tmp_path: Path) -> None:
    cause = "x86_64-w64-mingw32-gcc: not found"
    output = f"error: failed to run custom build command for `openssl-sys`\n  --- stderr\n  {cause}"
    build = {"command": "cargo build --target x86_64-pc-windows-gnu"}
    messages = [
        user("Ship the Windows build of the CLI."),
        *tool_turn("c1", "bash", build, output, True),
        *tool_turn("c2", "bash", build, "Finished release target(s) in 41s", False),
        *filler_turns(4, start=10),
    ]
    outcome = run(
        write_session(tmp_path / "s.jsonl", messages), ("scripted", Scripted(checkpoint()))
    )
    summary = outcome.entry["summary"]
    assert f'Fixed since: "{cause}"' in summary
    assert cause not in summary.split("### Blocked", 1)[1].split("\n#", 1)[0]
