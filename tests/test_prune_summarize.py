"""Prune, then summarize (issue 25): a compaction of a pruned session summarizes each pruned
tool result as the placeholder the model saw, not its whole output again; the outputs still
sent whole are summarized whole; with pruning off the summarizer sees every output (pi's)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.compaction_helpers import hooks_with, settings
from tests.ledger_helpers import FactFree
from tests.prune_helpers import harness_on, prune_home, start_server, text_of, write_files
from tether.core.memory.compaction import compact
from tether.core.session.session import Session


def pruned_session(tmp_path: Path, monkeypatch: Any) -> tuple[Path, list[str]]:
    """Eight prompts reading an 8 KB file each, pruning on; the file and the pruned ids."""
    cwd = tmp_path / "work"
    cwd.mkdir()
    server = start_server()
    server.start()
    home = prune_home(tmp_path, server, monkeypatch)
    harness = harness_on(cwd, home)
    for name in write_files(cwd, 8):
        assert harness.prompt(f"read {name}").error is None
    harness.close()
    server.stop()
    file = Path(harness.session.file)
    steps = [
        e["data"] for e in Session.open(file).get_branch() if e.get("customType") == "tether.prune"
    ]
    assert steps, "the session should have pruned"
    return file, [entry for step in steps for entry in step["entries"]]


def summarized_tool_texts(file: Path, **prune: Any) -> dict[str, str]:
    """Entry id -> the text the summarizer was given for each tool result it summarized."""
    factfree = FactFree()
    options = settings(keepRecentTokens=2500, summarizer="factfree", prune=prune)
    outcome = compact(Session.open(file), hooks_with(("factfree", factfree)), options)
    assert outcome.status == "compacted", outcome.reason
    out = {}
    for request in factfree.requests:
        for message, entry_id in zip(request.messages, request.entry_ids, strict=True):
            if message.get("role") == "toolResult":
                out[entry_id] = text_of(message.get("content"))
    return out


def test_a_pruned_output_is_summarized_as_its_placeholder(tmp_path: Path, monkeypatch: Any) -> None:
    file, pruned = pruned_session(tmp_path, monkeypatch)
    texts = summarized_tool_texts(file)
    summarized_pruned = [i for i in texts if i in pruned]
    assert summarized_pruned, texts.keys()
    for entry_id in summarized_pruned:
        assert texts[entry_id].startswith("[read output left out (entry "), texts[entry_id]
        assert f'recall id="{entry_id}" reads it' in texts[entry_id]
    for entry_id in set(texts) - set(pruned):  # sent whole, summarized whole
        assert texts[entry_id].startswith("file "), texts[entry_id][:60]
    # the stored file keeps every output whole
    stored = {e["id"]: e for e in Session.open(file).get_branch()}
    assert all(text_of(stored[i]["message"]["content"]).startswith("file ") for i in pruned)


def test_with_pruning_off_the_summarizer_sees_every_output(
    tmp_path: Path, monkeypatch: Any
) -> None:
    file, _pruned = pruned_session(tmp_path, monkeypatch)
    texts = summarized_tool_texts(file, enabled=False)
    assert texts and all(text.startswith("file ") for text in texts.values())
