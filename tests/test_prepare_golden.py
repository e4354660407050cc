"""Compaction preparation against pi's ``prepare`` goldens, and tether's fixes §8.8–8.10.

Every corpus file is prepared twice: with ``pi_quirks=True`` the result must equal pi's golden
in every field; tether's own result must equal it too, except on the files where a fix applies
(``FIXED``), where the test shows pi's value beside ours. Hand-made files in
``fixtures/compaction`` trigger each fix; pi's answers for them were recorded with the oracle
(``build.py --record``) into ``<name>.pi.json``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.compaction_helpers import COMPACTION, pi_recording
from tests.context_loader import (
    GEN,
    fixture_names,
    golden,
    golden_request,
    load_entries,
)
from tether.builtin_plugins.memory.pi_strategy.prepare import prepare_compaction_entries
from tether.builtin_plugins.memory.serialize import serialize_messages
from tether.builtin_plugins.memory.token_estimate import estimate_tokens
from tether.core.context.build import path_to_root
from tether.core.context.file_tracking import file_lists
from tether.hookspecs.events import CompactionPreparation, CompactionSettings, NothingToCompact

NAMES = fixture_names()
FIXED = {
    "g09-bash-exec": "§8.8 a cut at a bash execution is not a split turn",
    "e40-no-messages": "§8.10 nothing to compact",
}


def count(messages: list[dict[str, Any]]) -> list[int]:
    return [estimate_tokens(m) for m in messages]


def header_version(path: Path) -> int:
    header, _ = load_entries(path)
    if header is not None:
        return int(header.get("version", 1))
    first = json.loads(path.read_text(encoding="utf-8").split("\n", 1)[0])
    return int(first.get("version", 1))


def pi_numbered(entry: dict[str, Any], ids: dict[str, str]) -> dict[str, Any]:
    """``entry`` with the ids pi's oracle gives a migrated v1 file (00000001… in file order)."""
    out = dict(entry)
    for key in ("id", "parentId", "firstKeptEntryId", "fromId", "targetId"):
        if out.get(key) in ids:
            out[key] = ids[out[key]]
    return out


def branch_of(path: Path, leaf: str | None = None) -> list[dict[str, Any]]:
    """The root-first branch of a session file at ``leaf`` (default: the file's leaf)."""
    if header_version(path) == 3:
        _, entries = load_entries(path)
        by_id = {e.get("id"): e for e in entries}
        leaf_entry = by_id.get(leaf) if leaf else None
        if leaf_entry is None and entries:
            leaf_entry = entries[-1]
        return [] if leaf_entry is None else path_to_root(leaf_entry, by_id.get)
    from tether.core.session.session import Session

    session = Session.open(path, readonly=True)  # migrated in memory; a fixture is never rewritten
    branch = session.get_branch(leaf) if leaf else session.get_branch()
    if header_version(path) >= 2:
        return branch
    # a v1 file gets fresh random ids from the migration; pi's oracle numbers them instead
    ids = {e["id"]: f"{i + 1:08x}" for i, e in enumerate(session.entries())}
    return [pi_numbered(e, ids) for e in branch]


def settings_of(request: dict[str, Any]) -> CompactionSettings:
    return CompactionSettings(reserve_tokens=request["reserve"], keep_recent_tokens=request["keep"])


def prepare(name: str, *, pi_quirks: bool = False) -> CompactionPreparation | NothingToCompact:
    request = golden_request(name, "prepare")
    branch = branch_of(GEN / f"{name}.jsonl", request.get("leaf"))
    return prepare_compaction_entries(branch, settings_of(request), count, pi_quirks=pi_quirks)


def as_pi_fields(result: CompactionPreparation | NothingToCompact) -> dict[str, Any]:
    """Our result in the golden's terms (preparation fields + derived entry ids)."""
    if isinstance(result, NothingToCompact):
        return {"reason": result.reason}
    read, modified = file_lists(result.file_ops)
    return {
        "reason": None,
        "firstKeptEntryId": result.first_kept_entry_id,
        "isSplitTurn": result.is_split_turn,
        "tokensBefore": result.tokens_before,
        "previousSummary": result.previous_summary,
        "messagesToSummarize": result.messages_to_summarize,
        "turnPrefixMessages": result.turn_prefix_messages,
        "fileOps": result.file_ops,
        "readFiles": read,
        "modifiedFiles": modified,
        "summarizedEntryIds": result.summarized_entry_ids,
        "turnPrefixEntryIds": result.turn_prefix_entry_ids,
    }


def pi_fields(answer: dict[str, Any]) -> dict[str, Any]:
    """pi's golden / oracle ``prepare`` answer in the same terms."""
    prep = answer["preparation"]
    if prep is None:
        return {"reason": answer["reason"]}
    return {
        "reason": None,
        "firstKeptEntryId": prep["firstKeptEntryId"],
        "isSplitTurn": prep["isSplitTurn"],
        "tokensBefore": prep["tokensBefore"],
        "previousSummary": prep["previousSummary"],
        "messagesToSummarize": prep["messagesToSummarize"],
        "turnPrefixMessages": prep["turnPrefixMessages"],
        "fileOps": prep["fileOps"],
        "readFiles": prep["fileLists"]["readFiles"],
        "modifiedFiles": prep["fileLists"]["modifiedFiles"],
        "summarizedEntryIds": answer["derived"]["summarizedEntryIds"],
        "turnPrefixEntryIds": answer["derived"]["turnPrefixEntryIds"],
    }


@pytest.mark.parametrize("name", NAMES)
def test_pi_quirks_mode_equals_pi(name: str) -> None:
    assert as_pi_fields(prepare(name, pi_quirks=True)) == pi_fields(golden(name, "prepare"))


@pytest.mark.parametrize("name", [n for n in NAMES if n not in FIXED])
def test_tether_preparation_equals_pi(name: str) -> None:
    assert as_pi_fields(prepare(name)) == pi_fields(golden(name, "prepare"))


def test_fix_8_bash_cut_is_not_a_split_turn_on_corpus_file() -> None:
    """§8.8 on g09: pi cuts at a bash execution and flags a split turn with an empty prefix."""
    pi, ours = pi_fields(golden("g09-bash-exec", "prepare")), as_pi_fields(prepare("g09-bash-exec"))
    assert pi["isSplitTurn"] is True and pi["turnPrefixEntryIds"] == []
    assert ours["isSplitTurn"] is False and ours["turnPrefixEntryIds"] == []
    assert {**ours, "isSplitTurn": True} == pi


def _prepare_fixture(name: str, *, pi_quirks: bool = False) -> Any:
    params = pi_recording(name)["params"]
    settings = CompactionSettings(
        reserve_tokens=params["reserve"], keep_recent_tokens=params["keep"]
    )
    return prepare_compaction_entries(
        branch_of(COMPACTION / f"{name}.jsonl"), settings, count, pi_quirks=pi_quirks
    )


def test_fix_8_bookkeeping_before_user_message_is_not_a_split_turn() -> None:
    """§8.8: the cut lands on a user message preceded by a model and a thinking change. pi moves
    the cut onto the model change, calls it a split turn and summarizes the whole previous turn
    with the turn-prefix prompt; tether summarizes it as ordinary history."""
    name = "fix08-bookkeeping-before-user"
    recorded = pi_recording(name)
    pi = pi_fields(recorded["prepare"])
    assert as_pi_fields(_prepare_fixture(name, pi_quirks=True)) == pi
    ours = as_pi_fields(_prepare_fixture(name))
    assert pi["isSplitTurn"] is True and len(pi["turnPrefixEntryIds"]) == 4
    assert [r["kind"] for r in recorded["compact"]["requests"]] == ["summary", "turnPrefix"]
    assert ours["isSplitTurn"] is False and ours["turnPrefixEntryIds"] == []
    assert ours["firstKeptEntryId"] == pi["firstKeptEntryId"]
    assert ours["summarizedEntryIds"] == pi["summarizedEntryIds"] + pi["turnPrefixEntryIds"]
    assert ours["messagesToSummarize"] == pi["messagesToSummarize"] + pi["turnPrefixMessages"]
    assert (ours["readFiles"], ours["modifiedFiles"]) == (pi["readFiles"], pi["modifiedFiles"])


def test_fix_9_previous_summary_survives_a_repeated_split_turn() -> None:
    """§8.9: one huge turn spans two compactions, so nothing precedes the turn prefix. pi's
    summary becomes "No prior history." + the prefix summary: the first summary is lost.
    With tether's preparation, the kernel's summarization keeps the previous summary."""
    from tether.builtin_plugins.memory.pi_strategy.summary_parts import SPLIT_TURN_SEPARATOR
    from tether.core.hooks.facade import Hooks
    from tether.core.host.manager import create_plugin_manager
    from tether.core.memory.summary_requests import summary_attempt
    from tether.hookspecs import hookimpl
    from tether.hookspecs.events import SummarizeRequest, Summary

    name = "fix09-repeated-split-turn"
    recorded = pi_recording(name)
    ours = _prepare_fixture(name)
    assert as_pi_fields(ours) == pi_fields(recorded["prepare"])  # the same preparation
    assert ours.is_split_turn and ours.messages_to_summarize == [] and ours.previous_summary
    pi_summary = recorded["compact"]["result"]["summary"]
    assert [r["kind"] for r in recorded["compact"]["requests"]] == ["turnPrefix"]
    assert pi_summary.startswith("No prior history." + SPLIT_TURN_SEPARATOR)
    assert "Project set up" not in pi_summary

    asked: list[str] = []

    class Stub:
        @hookimpl
        def register_summarizers(self, register: Any) -> None:
            register("stub", self.summarize, default=True)

        def summarize(self, request: SummarizeRequest) -> Summary:
            asked.append(request.kind)
            return Summary(text=f"[{request.kind} summary]", summarizer="stub")

    pm = create_plugin_manager()
    pm.register(Stub(), name="stub-summarizer")
    text = summary_attempt(
        Hooks(pm),
        ours,
        SummarizeRequest(kind="compaction", messages=[]),
        None,
        lambda _line: None,
        "test",
    ).text
    assert asked == ["turn_prefix"]  # no model call for an empty history, as in pi
    history, prefix = text.split(SPLIT_TURN_SEPARATOR)
    assert "Project set up" in history and history.startswith("## Goal")
    assert "<read-files>" not in history  # the cumulative lists are appended once, at the end
    assert prefix == "[turn_prefix summary]"


def test_fix_10_nothing_to_compact_on_a_small_session() -> None:
    """§8.10: everything fits in keepRecentTokens. pi still prepares (zero messages) and asks
    the model to summarize an empty conversation; tether answers "nothing to compact"."""
    name = "fix10-nothing-to-compact"
    recorded = pi_recording(name)
    pi = pi_fields(recorded["prepare"])
    assert (
        pi["reason"] is None and pi["messagesToSummarize"] == [] and pi["turnPrefixMessages"] == []
    )
    request_text = recorded["compact"]["requests"][0]["messages"][0]["content"][0]["text"]
    assert request_text.startswith("<conversation>\n\n</conversation>")
    assert as_pi_fields(_prepare_fixture(name, pi_quirks=True)) == pi
    ours = _prepare_fixture(name)
    assert isinstance(ours, NothingToCompact)
    assert ours.reason.startswith("Nothing to compact") and str(pi["tokensBefore"]) in ours.reason


def test_fix_10_on_corpus_file_without_messages() -> None:
    pi = pi_fields(golden("e40-no-messages", "prepare"))
    assert pi["reason"] is None and pi["summarizedEntryIds"] == []
    assert isinstance(prepare("e40-no-messages"), NothingToCompact)


def test_builtin_strategy_pi_answers_with_the_chosen_counter() -> None:
    from tether.core.choices.running import run_strategy, token_counter
    from tether.core.host.manager import create_plugin_manager

    pm = create_plugin_manager(environ={"TETHER_LOAD_PLUGINS": ""})
    request = golden_request("g23-compaction-split-turn", "prepare")
    branch = branch_of(GEN / "g23-compaction-split-turn.jsonl")

    count = token_counter(pm, flag="chars")
    result = run_strategy(pm, branch, settings_of(request), count)
    assert as_pi_fields(result) == pi_fields(golden("g23-compaction-split-turn", "prepare"))
    assert run_strategy(pm, branch, settings_of(request), count, flag="pi") == result


# ---------------------------------------------------------------------------------------------
# tether session prepare
# ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pm():
    from tether.core.host.manager import create_plugin_manager

    return create_plugin_manager()


def run_cli(pm: Any, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    from tether.core.cli.app import main

    code = main(list(args), pm=pm)
    out, err = capsys.readouterr()
    return code, out, err


def cli_args(file: Path, request: dict[str, Any]) -> list[str]:
    args = [
        "session",
        "prepare",
        str(file),
        "--keep",
        str(request["keep"]),
        "--reserve",
        str(request["reserve"]),
        "--window",
        str(request.get("window", 128000)),
    ]
    if request.get("leaf") is not None:
        args += ["--leaf", request["leaf"]]
    return args


def expected_cli_json(name: str) -> dict[str, Any]:
    """pi's golden in the ``prepare --json`` shape (design §4)."""
    answer = golden(name, "prepare")
    if answer["preparation"] is None:
        return {"reason": answer["reason"]}
    pi = pi_fields(answer)
    return {
        "firstKeptEntryId": pi["firstKeptEntryId"],
        "isSplitTurn": pi["isSplitTurn"],
        "tokensBefore": pi["tokensBefore"],
        "previousSummary": pi["previousSummary"],
        "summarizedEntryIds": pi["summarizedEntryIds"],
        "turnPrefixEntryIds": pi["turnPrefixEntryIds"],
        "readFiles": pi["readFiles"],
        "modifiedFiles": pi["modifiedFiles"],
        "shouldCompact": answer["shouldCompact"]["byTokensBefore"],
    }


@pytest.mark.parametrize("name", NAMES)
def test_prepare_command_json_equals_pi(name: str, pm: Any, capsys: Any) -> None:
    request = golden_request(name, "prepare")
    code, out, err = run_cli(pm, capsys, *cli_args(GEN / f"{name}.jsonl", request), "--json")
    assert code == 0, err
    report = json.loads(out)
    expected = expected_cli_json(name)
    if name == "e40-no-messages":  # §8.10: pi prepares an empty compaction
        assert expected["summarizedEntryIds"] == [] and expected["turnPrefixEntryIds"] == []
        assert report["reason"].startswith("Nothing to compact")
        assert report["tokensBefore"] == expected["tokensBefore"]
        return
    if name == "g09-bash-exec":  # §8.8
        assert expected["isSplitTurn"] is True and report["isSplitTurn"] is False
        expected["isSplitTurn"] = False
    if header_version(GEN / f"{name}.jsonl") == 1:  # fresh random ids from the migration
        for key in ("summarizedEntryIds", "turnPrefixEntryIds"):
            assert len(report.pop(key)) == len(expected.pop(key))
        assert report.pop("firstKeptEntryId") and expected.pop("firstKeptEntryId")
    assert {k: report.get(k) for k in expected} == expected
    if "reason" not in report:
        serialized = golden(name, "serialize")
        prep = golden(name, "prepare")["preparation"]
        assert report["serialized"] == {
            "summarizeText": serialize_messages(prep["messagesToSummarize"]),
            "turnPrefixText": serialize_messages(prep["turnPrefixMessages"]),
        }
        assert (
            serialize_messages(prep["messagesToSummarize"], keep_tail=False)
            == (serialized["summarizeText"])
        )


def test_prepare_command_text_mode(pm: Any, capsys: Any) -> None:
    request = golden_request("g23-compaction-split-turn", "prepare")
    code, out, _ = run_cli(pm, capsys, *cli_args(GEN / "g23-compaction-split-turn.jsonl", request))
    assert code == 0
    assert "first kept:     62fe0d3a" in out
    assert "summarize:      87 messages" in out
    assert "split turn:     prefix of 4 messages" in out
    assert "compaction due: yes" in out
    code, out, _ = run_cli(
        pm, capsys, "session", "prepare", str(COMPACTION / "fix10-nothing-to-compact.jsonl")
    )
    assert code == 0 and "Nothing to compact" in out


def test_prepare_command_real_process_and_errors(tmp_path: Path) -> None:
    file = COMPACTION / "fix08-bookkeeping-before-user.jsonl"
    before = file.read_bytes()
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "tether",
            "session",
            "prepare",
            str(file),
            "--keep",
            "650",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["firstKeptEntryId"] == "0000000b" and report["isSplitTurn"] is False
    assert file.read_bytes() == before  # a dry run never writes
    proc = subprocess.run(
        [sys.executable, "-m", "tether", "session", "prepare", str(file), "--leaf", "nope"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode != 0
    assert proc.stderr.startswith("tether: error: ") and "nope" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_prepare_command_at_a_leaf_and_before_the_root(pm: Any, capsys: Any) -> None:
    file = COMPACTION / "fix08-bookkeeping-before-user.jsonl"
    code, out, _ = run_cli(
        pm, capsys, "session", "prepare", str(file), "--keep", "100", "--leaf", "00000006", "--json"
    )
    assert code == 0
    report = json.loads(out)
    # the walk back from 00000006 crosses 100 tokens at a tool result: the cut moves on to the
    # next assistant message, inside the first turn
    assert report["firstKeptEntryId"] == "00000004" and report["isSplitTurn"] is True
    assert report["summarizedEntryIds"] == []
    assert report["turnPrefixEntryIds"] == ["00000001", "00000002", "00000003"]
    code, out, _ = run_cli(pm, capsys, "session", "prepare", str(file), "--leaf", "null", "--json")
    assert json.loads(out)["reason"] == "Nothing to compact (session too small)"
