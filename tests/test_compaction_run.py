"""``tether.core.memory.compaction.compact``: pi's compaction flow through hooks.

The entry written for every corpus file equals pi's golden ``appendedEntry`` (the summarizer
answers pi's oracle texts, so even the summary text must match); cancel and custom compactions
from ``session_before_compact``; failures leave the file byte-for-byte unchanged and name the
plugin; tether's fixes §8.9 (previous summary kept) and §8.10 (no model call) beside pi's
recorded answers.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.compaction_helpers import (
    COMPACTION,
    ScriptedSummarizer,
    add_round,
    compact_scripted,
    copy_fixture,
    hooks_with,
    new_session,
    pi_recording,
    pi_request_kind,
    settings,
)
from tests.context_loader import GEN, fixture_names, golden, golden_request
from tether.builtin_plugins.memory.pi_strategy.summary_parts import (
    NO_PRIOR_HISTORY,
    SPLIT_TURN_SEPARATOR,
)
from tether.core.base.errors import TetherError
from tether.core.memory.compaction import compact
from tether.core.session.session import Session
from tether.hookspecs import hookimpl
from tether.hookspecs.events import Cancel, CustomCompaction

FIXED = {  # corpus files where tether's strategy deliberately differs (tests/test_prepare_golden)
    "g09-bash-exec": "§8.8 a cut at a bash execution is not a split turn",
    "e40-no-messages": "§8.10 nothing to compact",
}


def pi_ids(session: Session):
    """Our id → pi's: the same, except in migrated v1 files where the oracle numbers entries
    ``00000001``… in file order and tether draws random ids."""
    if session.version_on_disk not in (None, 1):
        return lambda entry_id: entry_id
    numbered = {e["id"]: f"{i + 1:08x}" for i, e in enumerate(session.entries())}
    return numbered.get


def compactable() -> list[str]:
    names = []
    for name in fixture_names():
        expected = golden(name, "compact")
        if "appendedEntry" in expected and name not in FIXED:
            names.append(name)
    return names


@pytest.mark.parametrize("name", compactable())
def test_compaction_entry_equals_pis(name: str, tmp_path: Path) -> None:
    expected = golden(name, "compact")
    request = golden_request(name, "compact")
    file = copy_fixture(GEN / f"{name}.jsonl", tmp_path)
    session = Session.open(file)
    outcome, summarizer = compact_scripted(session, request["reserve"], request["keep"])
    assert outcome.status == "compacted", outcome.reason
    ours, theirs = outcome.entry, expected["appendedEntry"]
    assert ours is not None
    pi_id = pi_ids(session)
    assert pi_id(ours["parentId"]) == theirs["parentId"]
    assert pi_id(ours["firstKeptEntryId"]) == theirs["firstKeptEntryId"]
    for key in ("type", "summary", "tokensBefore", "details"):
        assert ours[key] == theirs[key], key
    assert ours["fromHook"] is False and list(ours) == list(theirs)
    # a split turn's two requests run at once (as in pi): their order of arrival is not fixed
    assert sorted((pi_request_kind(r), r.max_tokens) for r in summarizer.requests) == sorted(
        (r["kind"], r["maxTokens"]) for r in expected["requests"]
    )
    reopened = Session.open(file)  # the entry is on disk and is the leaf
    assert reopened.leaf_id == ours["id"]
    assert reopened.build_context().messages[0]["summary"] == theirs["summary"]


def test_nothing_to_compact_makes_no_model_call(tmp_path: Path) -> None:
    """§8.10: pi asks the model to summarize an empty conversation and writes the result."""
    name = "fix10-nothing-to-compact"
    pi = pi_recording(name)
    assert pi["compact"]["appendedEntry"]["type"] == "compaction"  # pi: an entry anyway
    assert pi["compact"]["requests"], "pi made a summarization request"
    file = copy_fixture(COMPACTION / f"{name}.jsonl", tmp_path)
    before = file.read_bytes()
    params = pi["params"]
    outcome, summarizer = compact_scripted(Session.open(file), params["reserve"], params["keep"])
    assert outcome.status == "nothing" and "Nothing to compact" in outcome.reason
    assert summarizer.requests == []
    assert file.read_bytes() == before


def test_repeated_split_turn_keeps_previous_summary(tmp_path: Path) -> None:
    """§8.9: pi replaces the history by "No prior history." and loses the previous summary."""
    name = "fix09-repeated-split-turn"
    pi = pi_recording(name)
    pi_summary = pi["compact"]["result"]["summary"]
    assert pi_summary.startswith(NO_PRIOR_HISTORY + SPLIT_TURN_SEPARATOR)
    previous = pi["prepare"]["preparation"]["previousSummary"]
    file = copy_fixture(COMPACTION / f"{name}.jsonl", tmp_path)
    params = pi["params"]
    outcome, summarizer = compact_scripted(Session.open(file), params["reserve"], params["keep"])
    assert outcome.entry is not None
    ours = outcome.entry["summary"]
    kept_part = previous.split("\n\n<read-files>")[0]  # without its old file lists
    assert ours.startswith(kept_part + SPLIT_TURN_SEPARATOR + "[oracle turn-prefix summary]")
    assert ours.count("<read-files>") == 1  # the lists appear once, cumulative
    assert pi_summary.split(SPLIT_TURN_SEPARATOR)[1] == ours.split(SPLIT_TURN_SEPARATOR)[1]
    assert [r.kind for r in summarizer.requests] == ["turn_prefix"]


class Canceller:
    def __init__(self) -> None:
        self.events: list = []

    @hookimpl
    def session_before_compact(self, event):
        self.events.append(event)
        return Cancel("not now")


def test_cancel_writes_nothing(tmp_path: Path) -> None:
    file = copy_fixture(GEN / "g03-linear-tools.jsonl", tmp_path)
    before = file.read_bytes()
    summarizer, canceller = ScriptedSummarizer(), Canceller()
    outcome = compact(
        Session.open(file),
        hooks_with(("scripted", summarizer), ("cancel", canceller)),
        settings(keepRecentTokens=2000),
        custom_instructions="focus on tests",
    )
    assert outcome.status == "cancelled" and outcome.reason == "not now"
    assert summarizer.requests == [] and file.read_bytes() == before
    (event,) = canceller.events
    assert event.custom_instructions == "focus on tests" and event.reason == "manual"
    assert event.branch_entries[-1]["id"] == Session.open(file).leaf_id
    assert event.preparation.first_kept_entry_id


class CustomCompactor:
    @hookimpl
    def session_before_compact(self, event):
        return CustomCompaction(
            summary="my own summary",
            first_kept_entry_id=event.preparation.first_kept_entry_id,
            tokens_before=123,
            details={"by": "custom"},
        )


def test_custom_compaction_is_written_verbatim(tmp_path: Path) -> None:
    file = copy_fixture(GEN / "g03-linear-tools.jsonl", tmp_path)
    summarizer = ScriptedSummarizer()
    seen: list = []

    class Observer:
        @hookimpl
        def session_compact(self, event):
            seen.append(event)

    outcome = compact(
        Session.open(file),
        hooks_with(("scripted", summarizer), ("custom", CustomCompactor()), ("obs", Observer())),
        settings(keepRecentTokens=2000),
    )
    entry = outcome.entry
    assert entry is not None and summarizer.requests == []
    assert (entry["summary"], entry["tokensBefore"], entry["details"], entry["fromHook"]) == (
        "my own summary",
        123,
        {"by": "custom"},
        True,
    )
    assert seen and seen[0].from_hook is True and seen[0].entry["id"] == entry["id"]
    assert outcome.summarizer == "plugin"


REGISTER = {"summarizer": "register_summarizers", "strategy": "register_compaction_strategies"}


@pytest.mark.parametrize("where", ["summarizer", "session_before_compact", "strategy"])
def test_failing_plugin_leaves_file_untouched_and_is_named(tmp_path: Path, where: str) -> None:
    file = copy_fixture(GEN / "g03-linear-tools.jsonl", tmp_path)
    before = file.read_bytes()

    class Broken:
        pass

    def boom(*_args, **_kwargs):
        raise RuntimeError("the disk of the summarizer is on fire")

    def register_boom(register):
        register("boom", boom, default=True)

    broken = Broken()
    if where in REGISTER:  # a named summarizer or strategy claiming the default
        setattr(broken, REGISTER[where], hookimpl(register_boom))
    else:
        setattr(broken, where, hookimpl(boom))
    with pytest.raises(TetherError) as caught:
        compact(
            Session.open(file),
            hooks_with(("broken_thing", broken)),
            settings(keepRecentTokens=2000),
        )
    message = str(caught.value)
    assert "plugin 'broken_thing'" in message and where in message
    assert "on fire" in message and "session unchanged" in message
    assert file.read_bytes() == before


def test_failing_observer_is_a_warning_after_the_write(tmp_path: Path) -> None:
    file = copy_fixture(GEN / "g03-linear-tools.jsonl", tmp_path)

    class Observer:
        @hookimpl
        def session_compact(self, event):
            raise ValueError("observer broke")

    outcome = compact(
        Session.open(file),
        hooks_with(("scripted", ScriptedSummarizer()), ("observer", Observer())),
        settings(keepRecentTokens=2000),
    )
    assert outcome.status == "compacted"
    assert outcome.warnings and "plugin 'observer'" in outcome.warnings[0]
    assert Session.open(file).leaf_id == outcome.entry["id"]


def test_empty_summary_is_refused(tmp_path: Path) -> None:
    file = copy_fixture(GEN / "g03-linear-tools.jsonl", tmp_path)
    before = file.read_bytes()
    empty = ScriptedSummarizer(texts={"compaction": "  ", "turn_prefix": "x", "branch": "x"})
    with pytest.raises(TetherError, match="empty summary"):
        compact(
            Session.open(file), hooks_with(("scripted", empty)), settings(keepRecentTokens=2000)
        )
    assert file.read_bytes() == before


def test_five_compactions_keep_every_file_and_the_previous_summary(tmp_path: Path) -> None:
    """Repeated compactions of a growing session: lists are cumulative; each summary request
    folds the previous summary in."""
    file = tmp_path / "grow.jsonl"
    session = new_session(file)
    touched: dict[str, set[str]] = {"read": set(), "modified": set()}
    previous_summary = None
    summarizer = ScriptedSummarizer()
    hooks = hooks_with(("scripted", summarizer))
    for step in range(6):
        for n in range(3):
            files = add_round(session, step * 3 + n)
            for kind in touched:
                touched[kind].update(files[kind])
        asked = len(summarizer.requests)
        outcome = compact(session, hooks, settings(keepRecentTokens=150))
        assert outcome.status == "compacted", outcome.reason
        entry = outcome.entry
        assert entry is not None
        history = [r for r in summarizer.requests[asked:] if r.kind == "compaction"]
        if history:  # the previous summary is handed to the summarizer to be updated
            assert history[0].previous_summary == previous_summary
        else:  # a split turn with nothing new before it: the previous summary is kept as is
            assert entry["summary"].startswith(previous_summary.split("\n\n<read-files>")[0])
        listed = set(entry["details"]["readFiles"]) | set(entry["details"]["modifiedFiles"])
        summarized = _files_before(session, entry["firstKeptEntryId"])
        assert summarized <= listed, sorted(summarized - listed)
        assert set(entry["details"]["modifiedFiles"]) >= {
            p for p in touched["modified"] if p in summarized
        }
        assert (
            f"<modified-files>\n{chr(10).join(entry['details']['modifiedFiles'])}"
            in (entry["summary"])
        )
        previous_summary = entry["summary"]
        session = Session.open(file)  # each compaction survives a restart
    final = set(entry["details"]["readFiles"]) | set(entry["details"]["modifiedFiles"])
    assert len(final) >= 3 * 15  # files of every summarized round, none dropped


def _files_before(session: Session, first_kept_id: str) -> set[str]:
    """Every path touched by a tool call in the branch before ``first_kept_id``."""
    paths: set[str] = set()
    for entry in session.get_branch():
        if entry["id"] == first_kept_id:
            break
        message = entry.get("message") or {}
        for block in message.get("content") or []:
            if isinstance(block, dict) and block.get("type") == "toolCall":
                paths.add(block["arguments"]["path"])
    return paths


def test_repeated_compaction_with_the_offline_summarizer_keeps_summary_items(
    tmp_path: Path,
) -> None:
    file = tmp_path / "offline.jsonl"
    session = new_session(file)
    hooks = hooks_with()
    summaries = []
    for step in range(5):
        for n in range(2):
            add_round(session, step * 2 + n, words=40)
        outcome = compact(session, hooks, settings(keepRecentTokens=100, summarizer="offline"))
        assert outcome.status == "compacted" and outcome.summarizer == "offline"
        summaries.append(outcome.entry["summary"])
    for step in range(4):  # every round's request is still in the last summary
        assert f"round {step * 2}" in summaries[-1]


class AbortingSummarizer:
    """Stands for Ctrl-C / Escape while the model call runs: the signal fires, the call fails."""

    @hookimpl
    def register_summarizers(self, register):
        register("aborting", self.summarize, default=True)

    def summarize(self, request):
        request.signal.abort()
        raise RuntimeError("request aborted")


def test_abort_while_summarizing_cancels_and_writes_nothing(tmp_path: Path) -> None:
    from tether.hookspecs.abort import AbortSignal

    file = copy_fixture(GEN / "g03-linear-tools.jsonl", tmp_path)
    before = file.read_bytes()
    outcome = compact(
        Session.open(file),
        hooks_with(("aborting", AbortingSummarizer())),
        settings(keepRecentTokens=2000),
        signal=AbortSignal(),
    )
    assert (outcome.status, outcome.reason) == ("cancelled", "aborted")
    assert file.read_bytes() == before


def test_custom_compaction_keeping_an_unknown_entry_is_written_with_a_warning(
    tmp_path: Path,
) -> None:
    """pi writes it without a check; tether writes it too, and says what it will do."""

    class Careless:
        @hookimpl
        def session_before_compact(self, event):
            return CustomCompaction("s", "feedbeef", 1)

    file = copy_fixture(GEN / "g03-linear-tools.jsonl", tmp_path)
    outcome = compact(
        Session.open(file), hooks_with(("careless", Careless())), settings(keepRecentTokens=2000)
    )
    assert outcome.entry["firstKeptEntryId"] == "feedbeef"
    assert "not on the branch" in outcome.warnings[0]
    assert [m["role"] for m in Session.open(file).build_context().messages] == ["compactionSummary"]


def test_entries_of_a_session_without_assistant_stay_in_memory_like_pis(tmp_path: Path) -> None:
    file = tmp_path / "users-only.jsonl"
    session = new_session(file)
    for n in range(6):
        session.append_message(
            {"role": "user", "content": [{"type": "text", "text": f"note {n} " * 50}],
             "timestamp": n}
        )  # fmt: skip
    outcome = compact(
        session, hooks_with(("s", ScriptedSummarizer())), settings(keepRecentTokens=50)
    )
    assert outcome.status == "compacted"
    assert "not written to disk yet" in outcome.warnings[0]
    assert not file.exists()
