"""What the model receives equals pi's context wherever the last compaction's
``firstKeptEntryId`` lands: on a message or on an entry that holds none (the root
``model_change`` pi's CLI writes, an earlier model or thinking-level entry, a label, a
``custom`` or ``session_info`` entry, an earlier compaction, …).

``session context --request`` (the live context: ``Session.build_context``, which also feeds
the agent, compaction, stats and branching) is compared with ``session context --json`` over
every session file of the fixtures, and ``tests/fixtures/cuts`` (one file per kind of entry at
the cut) with pi's own context (``<name>.pi-context.json``, from the oracle; see its
``build.py``). Then one real turn after a compaction that keeps from the first entry.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.harness_helpers import chat_requests, open_harness, plugin_manager, write_home
from tests.test_context_golden import assert_same_context
from tether import hookimpl
from tether.builtin_plugins.providers.numbers import json_text
from tether.builtin_plugins.storage.jsonl.context.batches import encode_context
from tether.builtin_plugins.tools.recall.replaced import with_replaced_note
from tether.core.cli.app import main
from tether.core.context.convert import convert_to_llm
from tether.core.session.session import Session
from tether.hookspecs.events import CompactionPreparation, PrepareRequest

FIXTURES = Path(__file__).parent / "fixtures"
CUTS = FIXTURES / "cuts"
# every folder of session files that have pi's goldens next to them
CORPUS_DIRS = ["pi/gen", "pi/stringify", "bad_values", "compaction", "gate", "pins", "store_pi"]
CORPUS = sorted(f for d in CORPUS_DIRS for f in (FIXTURES / d).glob("*.jsonl"))
CUT_FILES = sorted(CUTS.glob("*.jsonl"))
# the sessions name these providers: served by the faux adapter, the request is its context
PROVIDERS = ("openai", "anthropic", "google", "xai", "openrouter", "faux", "loop", "p")


def test_the_corpus_and_every_kind_of_cut_are_there() -> None:
    assert len(CORPUS) >= 63  # 63 when written; more may come
    assert {f.stem for f in CUT_FILES} == {
        "root-model-change",
        "earlier-model-change",
        "last-model-change",
        "earlier-thinking-level",
        "last-thinking-level",
        "label",
        "custom",
        "session-info",
        "custom-message",
        "branch-summary",
        "earlier-compaction",
        "message",
        "missing",
    }


@pytest.fixture(scope="module")
def pm() -> Any:
    return plugin_manager()


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("home")
    providers = {name: {"api": "faux"} for name in PROVIDERS}
    (home / "models.json").write_text(json.dumps({"providers": providers}))
    defaults = {"defaultProvider": "faux", "defaultModel": "faux-1"}
    (home / "settings.json").write_text(json.dumps(defaults))
    return home


def _cli(pm: Any, capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    capsys.readouterr()
    code = main(list(args), pm=pm)
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out, parse_int=float)  # numbers as JavaScript reads them


def _as_sent(value: Any) -> Any:
    """``value`` as a request body carries it (lone surrogates replaced, JS numbers)."""
    return json.loads(json_text(value).encode("utf-8", "replace"), parse_int=float)


@pytest.mark.parametrize("file", CORPUS + CUT_FILES, ids=lambda f: f"{f.parent.name}/{f.stem}")
def test_the_request_holds_the_context_of_session_context_json(
    file: Path,
    pm: Any,
    home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("TETHER_HOME", str(home))
    copy = tmp_path / file.name  # a legacy file is migrated on open
    shutil.copyfile(file, copy)
    shown = _cli(pm, capsys, "session", "context", str(copy), "--json")
    request = _cli(pm, capsys, "session", "context", str(copy), "--request")
    leaf = shown["leafId"]
    branch = Session.open(copy, readonly=True).get_branch(leaf) if leaf is not None else []
    # the recall tool's note on the summary is added to what is sent, as the harness does
    expected = convert_to_llm(with_replaced_note(shown["messages"], branch))
    assert request["messages"] == _as_sent(expected)


@pytest.mark.parametrize("file", CUT_FILES, ids=lambda f: f.stem)
def test_every_kind_of_cut_gives_pis_context(file: Path) -> None:
    pi = json.loads(file.with_suffix(".pi-context.json").read_text(encoding="utf-8"))
    session = Session.open(file, readonly=True)
    context = session.build_context()
    ours = {
        "leafId": session.leaf_id,
        "thinkingLevel": context.thinking_level,
        "model": context.model,
        "messages": context.messages,
        "llmMessages": convert_to_llm(context.messages),
    }
    assert_same_context(ours, pi)
    encoded, stream = encode_context(session, session.leaf_id)  # ``session context --quiet``
    assert (encoded.message_count, encoded.llm_count) == (
        pi["messageCount"],
        pi["llmMessageCount"],
    )
    assert (stream.thinking_level, stream.model) == (pi["thinkingLevel"], pi["model"])


def test_every_kind_of_cut_through_session_context_json(
    pm: Any, home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TETHER_HOME", str(home))
    for file in CUT_FILES:
        pi = json.loads(file.with_suffix(".pi-context.json").read_text(encoding="utf-8"))
        shown = _cli(pm, capsys, "session", "context", str(file), "--json")
        assert _as_sent(shown["messages"]) == _as_sent(pi["messages"]), file.name
        assert shown["messageCount"] == pi["messageCount"], file.name


class KeepFromTheFirstEntry:
    """A compaction strategy whose cut is the branch's first entry (keeps everything)."""

    @hookimpl
    def register_compaction_strategies(self, register: Any) -> None:
        def prepare(request: PrepareRequest) -> CompactionPreparation:
            return CompactionPreparation(
                first_kept_entry_id=request.path[0]["id"],
                messages_to_summarize=[],
                turn_prefix_messages=[],
                is_split_turn=False,
                tokens_before=100,
                previous_summary=None,
                file_ops={"read": [], "written": [], "edited": []},
                settings=request.settings,
                strategy="keep-all",
            )

        register("keep-all", prepare)


def test_a_turn_after_a_compaction_kept_from_the_first_entry_sends_every_kept_message(
    openai_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("TETHER_HOME", str(home))
    monkeypatch.setenv("TETHER_FSYNC", "0")
    compaction = {"strategy": "keep-all", "summarizer": "offline"}
    write_home(home, openai_server, settings={"compaction": compaction})
    for answer in ("Answer one.", "Answer two.", "Answer three."):
        openai_server.text(answer)
    pm = plugin_manager(("keep_all", KeepFromTheFirstEntry()))
    with open_harness(pm, tmp_path, home, "loop/test-model") as harness:
        harness.prompt("Question one?")
        harness.prompt("Question two?")
        first = harness.session.get_branch()[0]
        outcome = harness.compact()
        assert outcome is not None and outcome.status == "compacted"
        assert outcome.entry["firstKeptEntryId"] == first["id"]
        assert first["type"] != "message"  # the cut is on an entry that holds no message
        harness.prompt("Question three?")
    body = chat_requests(openai_server)[-1]
    sent = [(m["role"], m["content"]) for m in body["messages"][1:]]
    assert sent[0][0] == "user" and "summary" in sent[0][1]
    assert sent[1:] == [
        ("user", "Question one?"),
        ("assistant", "Answer one."),
        ("user", "Question two?"),
        ("assistant", "Answer two."),
        ("user", "Question three?"),
    ]
