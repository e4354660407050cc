"""The built-in pruning stage (plugin ``prune``, issue 25 items 1-3): old tool output leaves the
context as placeholders naming the entry and ``recall``, in steps of at least
``minFreeTokens``, with the request's prefix byte-identical between steps, the stored file
untouched, the same bytes after a restart, and pi's context with ``--no-prune``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.prune_helpers import (
    harness_on,
    prune_home,
    sent_messages,
    start_server,
    starts_with,
    text_of,
    write_files,
)
from tether.core.base.errors import TetherError
from tether.core.session.session import Session


def tool_texts(messages: list[dict[str, Any]]) -> list[str]:
    return [text_of(m.get("content")) for m in messages if m.get("role") == "tool"]


def run_session(
    tmp_path: Path, monkeypatch: Any, files: int = 8, same_ids: bool = False, **prune: Any
) -> Any:
    """``files`` prompts, each reading one 8 KB file (2,000 tokens), on a fresh session."""
    cwd = tmp_path / "work"
    cwd.mkdir(exist_ok=True)
    names = write_files(cwd, files)
    server = start_server(same_ids=same_ids)
    server.start()
    home = prune_home(tmp_path, server, monkeypatch, **prune)
    harness = harness_on(cwd, home)
    events: list[Any] = []
    harness.subscribe(lambda e: events.append(e.data) if e.type == "context_pruned" else None)
    for name in names:
        assert harness.prompt(f"read {name}").error is None
    harness.close()
    server.stop()
    return server, harness.session.file, events, (cwd, home, names)


@pytest.mark.parametrize("same_ids", [False, True])
def test_old_outputs_become_placeholders_naming_the_entry_and_recall(
    same_ids: bool, tmp_path: Path, monkeypatch: Any
) -> None:
    """Also when every tool call has the same id: each placeholder names its own entry."""
    server, file, events, _ = run_session(tmp_path, monkeypatch, same_ids=same_ids)
    last = tool_texts(sent_messages(server)[-1])
    pruned = [t for t in last if t.startswith("[read output left out (entry ")]
    assert len(pruned) == 6 and len(last) == 8
    entries = {e["id"]: e for e in Session.open(file).get_branch()}
    for text in pruned:
        entry_id = text.split("(entry ")[1].split(",")[0]
        assert f'recall id="{entry_id}" reads it' in text
        assert entries[entry_id]["message"]["role"] == "toolResult"
    names = [
        text_of(entries[t.split("(entry ")[1].split(",")[0]]["message"]["content"]) for t in pruned
    ]
    assert [name[:7] for name in names] == [f"file {n} " for n in range(6)]
    assert [len(e["entries"]) for e in events] == [2, 2, 2]
    assert all(e["tokensBefore"] - e["tokensAfter"] >= 2000 for e in events)


def test_a_step_needs_min_free_tokens(tmp_path: Path, monkeypatch: Any) -> None:
    server, _file, events, _ = run_session(tmp_path, monkeypatch, minFreeTokens=100_000)
    assert events == []
    assert all(len(t) == 8000 for t in tool_texts(sent_messages(server)[-1]))


def test_between_steps_every_request_starts_with_the_previous_one(
    tmp_path: Path, monkeypatch: Any
) -> None:
    server, _file, events, _ = run_session(tmp_path, monkeypatch)
    sent = sent_messages(server)
    breaks = [i for i in range(1, len(sent)) if not starts_with(sent[i], sent[i - 1])]
    assert len(breaks) == len(events) == 3  # only where a step pruned more
    for i in breaks:  # what was pruned before stays pruned, byte for byte
        before = [t for t in tool_texts(sent[i - 1]) if t.startswith("[read output")]
        assert tool_texts(sent[i])[: len(before)] == before


def test_the_stored_file_keeps_every_output_whole_and_records_each_step(
    tmp_path: Path, monkeypatch: Any
) -> None:
    _server, file, events, _ = run_session(tmp_path, monkeypatch)
    entries = [json.loads(line) for line in Path(file).read_text().splitlines()[1:]]
    outputs = [e["message"] for e in entries if e.get("message", {}).get("role") == "toolResult"]
    assert [len(text_of(m["content"])) for m in outputs] == [8000] * 8
    steps = [e for e in entries if e.get("type") == "custom"]
    assert [e["customType"] for e in steps] == ["tether.prune"] * 3
    assert [e["data"]["through"] for e in steps] == [e["through"] for e in events]
    for step in steps:
        cost = step["data"]
        assert cost["summarizer"] == "prune" and cost["usage"] == {"input": 0, "output": 0}
        assert cost["durationMs"] >= 0 and cost["tokensAfter"] < cost["tokensBefore"]


def test_no_prune_sends_pis_context(tmp_path: Path, monkeypatch: Any) -> None:
    server, file, events, _ = run_session(tmp_path, monkeypatch, enabled=False)
    assert events == []
    assert all(len(t) == 8000 for t in tool_texts(sent_messages(server)[-1]))
    assert not any(e.get("type") == "custom" for e in Session.open(file).get_branch())


def test_a_restarted_process_sends_the_same_bytes(tmp_path: Path, monkeypatch: Any) -> None:
    server, file, _events, (cwd, home, _names) = run_session(tmp_path, monkeypatch, files=5)
    before = sent_messages(server)[-1]
    again = start_server()
    again.start()
    try:
        prune_home(tmp_path, again, monkeypatch)
        harness = harness_on(cwd, home, session=Session.open(file))
        assert harness.prompt("one more question").error is None
        harness.close()
    finally:
        again.stop()
    (first,) = sent_messages(again)
    assert starts_with(first, before)


@pytest.mark.parametrize(
    ("prune", "problem"),
    [
        ({"keepToolTokens": -1}, "compaction.prune.keepToolTokens must be a whole number"),
        ({"enabled": "yes"}, "compaction.prune.enabled must be true or false"),
    ],
)
def test_a_bad_setting_is_one_line_naming_the_field(
    prune: dict[str, Any], problem: str, tmp_path: Path, monkeypatch: Any
) -> None:
    cwd = tmp_path / "work"
    cwd.mkdir()
    (cwd / "a.txt").write_text("x" * 800)
    server = start_server()
    server.start()
    try:
        home = prune_home(tmp_path, server, monkeypatch, **prune)
        harness = harness_on(cwd, home)
        with pytest.raises(TetherError) as failed:
            harness.prompt("read a.txt")
        harness.close()
    finally:
        server.stop()
    assert str(failed.value).startswith("plugin 'prune' failed in prune_context: settings: ")
    assert problem in str(failed.value) and "\n" not in str(failed.value)


def _stored_turns(session: Session, turns: range) -> list[dict[str, Any]]:
    """Turns of: user, a read call, its 8 KB result, the answer; all stored."""
    messages: list[dict[str, Any]] = []
    for n in turns:
        call = {"type": "toolCall", "id": f"c{n}", "name": "read", "arguments": {}}
        result = {"type": "text", "text": f"{n}" * 8000}
        for message in (
            {"role": "user", "content": [{"type": "text", "text": f"turn {n}"}], "timestamp": n},
            {"role": "assistant", "content": [call], "stopReason": "toolUse", "timestamp": n},
            {"role": "toolResult", "toolCallId": f"c{n}", "toolName": "read", "content": [result],
             "isError": False, "timestamp": n},
            {"role": "assistant", "content": [{"type": "text", "text": "ok"}], "timestamp": n},
        ):  # fmt: skip
            session.append_message(message)
            messages.append(message)
    return messages


def test_a_preview_says_what_the_next_call_frees_and_changes_nothing(tmp_path: Path) -> None:
    from tether.builtin_plugins.memory.prune.stage import Budget, PruneStage
    from tether.core.hooks.plugin_session import PluginSession

    session = Session.in_memory(str(tmp_path))
    view = PluginSession.reading(session, hooks=None)
    stage, budget = PruneStage(), Budget(keep=3000, min_free=2000)
    messages = _stored_turns(session, range(1))
    assert stage.run(messages, view, budget, preview=False)[1:] == (0, 0, None)
    messages += _stored_turns(
        session, range(1, 3)
    )  # two turns arrive without a call (a resumed file)
    previewed, freed, saved, report = stage.run(messages, view, budget, preview=True)
    assert report is None and freed == saved > 3800
    again = stage.run(messages, view, budget, preview=True)
    assert again[1:] == (freed, saved, None)  # the preview left no trace
    assert not any(e["type"] == "custom" for e in session.get_branch())
    sent, freed_now, saved_now, report = stage.run(messages, view, budget, preview=False)
    assert (freed_now, saved_now) == (freed, saved) and report is not None
    assert sent == previewed
    assert [text_of(m["content"])[:10] for m in sent if m["role"] == "toolResult"] == [
        "[read outp",
        "[read outp",
        "2" * 10,
    ]


def test_the_threshold_counts_the_pruned_context() -> None:
    from tether.core.base.settings import Settings
    from tether.core.harness.compaction import context_tokens, over_threshold
    from tether.hookspecs.events import PrunedContext

    def count(messages: list[dict[str, Any]]) -> list[int]:
        return [len(text_of(m.get("content"))) // 4 for m in messages]

    used = {"input": 20000, "output": 10, "totalTokens": 20010}
    anchored = [
        {"role": "user", "content": "x" * 400, "timestamp": 1},
        {"role": "assistant", "content": "ok", "usage": used, "stopReason": "stop", "timestamp": 2},
    ]
    estimated = [{"role": "user", "content": "x" * 80_000, "timestamp": 1}]
    pruned = PrunedContext([], freed=6000, saved=9000)
    assert context_tokens(anchored, count, pruned) == 20010 - 6000  # the last call's usage
    assert context_tokens(estimated, count, pruned) == 20000 - 9000  # a full estimate
    settings = Settings()
    assert over_threshold(anchored, count, 32000, settings)[0]
    assert not over_threshold(anchored, count, 32000, settings, pruned)[0]


def test_recall_reads_a_pruned_output_by_the_id_its_placeholder_names(
    tmp_path: Path, monkeypatch: Any
) -> None:
    from tether.builtin_plugins.tools.recall.tool import run_recall
    from tether.core.hooks.plugin_session import PluginSession
    from tether.hookspecs.tools import ToolContext

    server, file, _events, (cwd, _home, _names) = run_session(tmp_path, monkeypatch, files=5)
    placeholder = tool_texts(sent_messages(server)[-1])[0]
    entry_id = placeholder.split('recall id="')[1].split('"')[0]
    view = PluginSession.reading(Session.open(file), hooks=None)
    result = run_recall("r1", {"id": entry_id}, ToolContext(cwd=str(cwd), session=view))
    text = result.content[0]["text"]
    assert text.startswith(f"[{entry_id}] ") and "file 0 line 0: lorem ipsum" in text


def test_pi_opens_a_pruned_session_with_every_output_whole(tmp_path: Path) -> None:
    """The fixture was written with pruning on (four steps); the golden is pi's oracle
    ``context`` output for it: pi skips the step entries and sends every output whole, and
    ``tether session context`` gives the same."""
    from tests.cli_in_process import run_in_process
    from tests.test_context_golden import assert_same_context

    fixtures = Path(__file__).parent / "fixtures" / "prune"
    file = fixtures / "pruned-session.jsonl"
    entries = [json.loads(line) for line in file.read_text(encoding="utf-8").splitlines()[1:]]
    assert sum(1 for e in entries if e.get("customType") == "tether.prune") == 4
    pi = json.loads((fixtures / "pruned-session.pi-context.json").read_text(encoding="utf-8"))
    assert pi["entryCount"] == len(entries)
    outputs = [m for m in pi["messages"] if m["role"] == "toolResult"]
    assert [len(text_of(m["content"])) for m in outputs] == [2000] * 5
    done = run_in_process("session", "context", str(file), "--json", home=tmp_path, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert_same_context(json.loads(done.stdout), pi)


def test_the_pruning_line_names_no_summarizer(tmp_path: Path, monkeypatch: Any) -> None:
    """A pruning step asks no model: its line says what left and how long it took."""
    from tether.builtin_plugins.commands.agent.feedback import pruned_line

    _server, _file, events, _ = run_session(tmp_path, monkeypatch)
    line = pruned_line(events[0])
    assert line.startswith("pruned 2 old tool outputs: ~")
    assert f"(through entry {events[0]['through']}; " in line and line.endswith(" s)")
    assert "summarizer" not in line and " in / " not in line
